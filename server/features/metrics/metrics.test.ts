/**
 * GET /metrics as Prometheus scrapes it: only with METRICS_TOKEN as a bearer token (401
 * without it; a 404 like any unknown path when no token is configured), in the text
 * exposition format, and figures that move with what the instance does.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobs } from '../../db/schema.js';
import { buildTestApp, type TestApp } from '../../test/build-test-app.js';
import { createAndSignIn, TECHNICIAN } from '../../test/factories.js';
import { makeJpeg, serviceVisitMetadata, uploadForm } from '../../test/photos.js';
import { type Exposition, parseExposition } from '../../test/prometheus-text.js';
import { testDatabaseKind } from '../../test/test-database.js';

const TOKEN = 'a-metrics-token-for-tests-42';
const bearer = { authorization: `Bearer ${TOKEN}` };

let t: TestApp;
let technician: string;

beforeAll(async () => {
  t = await buildTestApp({ metricsToken: TOKEN });
  ({ technician } = await createAndSignIn(t, { technician: TECHNICIAN }));
});
afterAll(() => t.close());

async function scrape(app = t): Promise<Exposition> {
  const response = await app.app.inject({ method: 'GET', url: '/metrics', headers: bearer });
  expect(response.statusCode, response.body).toBe(200);
  expect(response.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
  return parseExposition(response.body);
}

const REQUESTS = 'hkmi_http_request_duration_seconds_count';

describe('GET /metrics', () => {
  it('counts a request under its route pattern and status: scrape, call, scrape again', async () => {
    const health = { method: 'GET', route: '/api/health', status: '200' };
    const before = (await scrape()).value(REQUESTS, health) ?? 0;
    expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    const after = await scrape();
    expect(after.value(REQUESTS, health)).toBe(before + 1);
    expect(after.value('hkmi_http_request_duration_seconds_bucket', { ...health, le: '+Inf' })).toBe(before + 1);

    // The route's pattern, never the raw URL; a path no route matches is 'unmatched'.
    const image = { method: 'GET', route: '/api/inspections/:recordId/image', status: '401' };
    const imageBefore = after.value(REQUESTS, image) ?? 0;
    await t.app.inject({ method: 'GET', url: '/api/inspections/INS-20250101-SECRET/image' });
    await t.app.inject({ method: 'GET', url: '/api/no-such-route-xyz' });
    const third = await scrape();
    expect(third.value(REQUESTS, image)).toBe(imageBefore + 1);
    expect(third.value(REQUESTS, { method: 'GET', route: 'unmatched', status: '404' })).toBeGreaterThanOrEqual(1);
    const labelValues = third.samples.flatMap((s) => Object.values(s.labels));
    expect(labelValues.some((v) => v.includes('SECRET') || v.includes('no-such-route'))).toBe(false);
  });

  it('is the text exposition format, with every figure the README names', async () => {
    const exposition = await scrape();
    const families = [...exposition.types.keys()];
    const expected = [
      'hkmi_info',
      'hkmi_http_request_duration_seconds',
      'hkmi_uploads_total',
      'hkmi_report_duration_seconds',
      'hkmi_database_up',
      'hkmi_jobs',
      'hkmi_jobs_oldest_age_seconds',
      'hkmi_photos_pending',
      'hkmi_photos_pending_oldest_age_seconds',
      'hkmi_photo_worker_backlog',
      'hkmi_backup_last_success_timestamp_seconds',
      'hkmi_backup_last_success_duration_seconds',
      // prom-client's process figures.
      'process_cpu_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_eventloop_lag_seconds',
      'nodejs_heap_size_used_bytes',
    ];
    expect(families).toEqual(expect.arrayContaining(expected));
    expect(exposition.types.get('hkmi_http_request_duration_seconds')).toBe('histogram');
    expect(exposition.types.get('hkmi_uploads_total')).toBe('counter');
    expect(exposition.value('hkmi_database_up')).toBe(1);
    expect(exposition.value('hkmi_info', { database: testDatabaseKind })).toBe(1);
    const pool = ['hkmi_db_pool_connections', 'hkmi_db_pool_waiting_queries', 'hkmi_db_pool_max_connections'];
    if (testDatabaseKind === 'postgres') {
      expect(families).toEqual(expect.arrayContaining(pool));
      // buildTestApp's pool (test-database.ts).
      expect(exposition.value('hkmi_db_pool_max_connections')).toBe(4);
      expect(exposition.value('hkmi_db_pool_connections', { state: 'idle' })).toBeGreaterThanOrEqual(0);
    } else {
      // PGlite is one connection inside the process: no pool to report.
      for (const name of pool) expect(families).not.toContain(name);
    }
  });

  it('counts uploads accepted and replays answered', async () => {
    const before = await scrape();
    const metadata = serviceVisitMetadata({ technicianId: TECHNICIAN.employeeId, clientSubmissionId: randomUUID() });
    const photo = await makeJpeg(640, 480, 7);
    const send = () => t.app.inject({ method: 'POST', url: '/api/inspections/upload', headers: { cookie: technician }, payload: uploadForm(metadata, photo) });
    expect((await send()).statusCode).toBe(201);
    expect((await send()).statusCode).toBe(200);
    await t.photosSettled();
    const after = await scrape();
    for (const outcome of ['accepted', 'replayed']) {
      expect(after.value('hkmi_uploads_total', { outcome })).toBe((before.value('hkmi_uploads_total', { outcome }) ?? 0) + 1);
    }
    expect(after.value('hkmi_photo_worker_backlog', { state: 'queued' })).toBe(0);
  });

  it('reads the job queue, the photos waiting and the last backup from the database, as any instance would', async () => {
    const db = t.database.db;
    const backupId = randomUUID();
    await db.insert(jobs).values([
      { id: randomUUID(), kind: 'report.test-metrics', status: 'queued', createdAt: sql`now() - interval '20 minutes'` },
      { id: randomUUID(), kind: 'report.test-metrics', status: 'queued', createdAt: sql`now() - interval '1 minute'` },
      {
        id: backupId,
        kind: 'backup',
        status: 'done',
        uniqueKey: null,
        createdAt: new Date('2026-01-02T03:00:00Z'),
        startedAt: new Date('2026-01-02T03:00:00Z'),
        finishedAt: new Date('2026-01-02T03:01:30Z'),
      },
    ]);
    await db.execute(sql`update inspection_logs set photo_state = 'pending'`);
    try {
      const exposition = await scrape();
      const queued = { kind: 'report.test-metrics', status: 'queued' };
      expect(exposition.value('hkmi_jobs', queued)).toBe(2);
      expect(exposition.value('hkmi_jobs_oldest_age_seconds', queued)).toBeGreaterThanOrEqual(20 * 60);
      expect(exposition.value('hkmi_jobs_oldest_age_seconds', queued)).toBeLessThan(60 * 60);
      expect(exposition.value('hkmi_backup_last_success_timestamp_seconds')).toBe(Date.parse('2026-01-02T03:01:30Z') / 1000);
      expect(exposition.value('hkmi_backup_last_success_duration_seconds')).toBe(90);
      expect(exposition.value('hkmi_photos_pending')).toBe(1);
      expect(exposition.value('hkmi_photos_pending_oldest_age_seconds')).toBeGreaterThanOrEqual(0);
    } finally {
      await db.execute(sql`delete from jobs where kind = 'report.test-metrics' or id = ${backupId}`);
      await db.execute(sql`update inspection_logs set photo_state = 'ready'`);
    }
    // Once the queue is empty its series go, rather than keeping the last figure.
    expect((await scrape()).value('hkmi_jobs', { kind: 'report.test-metrics' })).toBeUndefined();
  });

  it('refuses a scrape without the token, or with another, with 401 and WWW-Authenticate', async () => {
    for (const headers of [{}, { authorization: 'Bearer wrong-token-of-some-length' }, { authorization: `Basic ${Buffer.from(`x:${TOKEN}`).toString('base64')}` }, { authorization: TOKEN }, { authorization: `Bearer ${TOKEN}x` }]) {
      const response = await t.app.inject({ method: 'GET', url: '/metrics', headers });
      expect(response.statusCode, JSON.stringify(headers)).toBe(401);
      expect(response.headers['www-authenticate']).toBe('Bearer realm="metrics"');
      expect(response.json()).toMatchObject({ code: 'NOT_AUTHENTICATED' });
      expect(response.body).not.toContain('hkmi_');
    }
    // The scheme's case does not matter (RFC 7235).
    expect((await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `bearer ${TOKEN}` } })).statusCode).toBe(200);
  });

  it('keeps each app instance its own figures (a registry per app, not the global one)', async () => {
    const other = await buildTestApp({ metricsToken: TOKEN });
    try {
      expect((await scrape(other)).value(REQUESTS, { route: '/api/health' })).toBeUndefined();
      expect((await scrape()).value(REQUESTS, { method: 'GET', route: '/api/health', status: '200' })).toBeGreaterThanOrEqual(1);
    } finally {
      await other.close();
    }
  });
});

describe('without METRICS_TOKEN', () => {
  it('has no /metrics: the answer of any unknown path, token or not, and no metrics plugin', async () => {
    const plain = await buildTestApp();
    try {
      const unknown = await plain.app.inject({ method: 'GET', url: '/no-such-page' });
      for (const headers of [{}, bearer]) {
        const response = await plain.app.inject({ method: 'GET', url: '/metrics', headers });
        expect(response.statusCode).toBe(404);
        expect(response.body).toBe(unknown.body);
      }
      expect(plain.app.hasRoute({ method: 'GET', url: '/metrics' })).toBe(false);
      expect(plain.app.hasPlugin('metrics')).toBe(false);
    } finally {
      await plain.close();
    }
  });
});
