/**
 * GET /api/ready, as a load balancer calls it (no session): 200 when the instance can serve,
 * 503 naming the failed check when its database is gone or behind this build's migrations,
 * its blob store takes no write, or it is stopping; and ready again on its own once the
 * database is back.
 */
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readinessResponseSchema, type ReadinessResponse } from '../../../common/schemas/auth.js';
import { buildTestApp, type TestApp } from '../../test/build-test-app.js';
import { until } from '../../test/server-process.js';
import { testDatabaseKind } from '../../test/test-database.js';
import { createShutdownState } from './shutdown.js';

let t: TestApp;
const shutdown = createShutdownState();
beforeAll(async () => {
  t = await buildTestApp({}, { shutdown });
});
afterAll(() => t.close());

async function ready(app: TestApp = t): Promise<{ status: number; body: ReadinessResponse }> {
  const response = await app.app.inject({ method: 'GET', url: '/api/ready' });
  expect(response.headers['cache-control']).toBe('no-store');
  return { status: response.statusCode, body: readinessResponseSchema.parse(response.json()) };
}

describe('GET /api/ready', () => {
  it('answers 200 without a session when every check passes', async () => {
    expect(await ready()).toEqual({
      status: 200,
      body: { status: 'ready', checks: { database: 'ok', migrations: 'ok', blobStore: 'ok', lifecycle: 'serving' } },
    });
  });

  it('writes to the blob store once for many probes (the check is shared a while)', async () => {
    let probes = 0;
    const other = await buildTestApp();
    try {
      const probeWrite = other.blobs.probeWrite.bind(other.blobs);
      other.blobs.probeWrite = () => {
        probes += 1;
        return probeWrite();
      };
      const answers = await Promise.all(Array.from({ length: 20 }, () => ready(other)));
      for (let i = 0; i < 20; i++) answers.push(await ready(other));
      expect(answers.every((a) => a.status === 200)).toBe(true);
      expect(probes).toBe(1);
    } finally {
      await other.close();
    }
  });

  it('answers 503 naming the blob store when it takes no write', async () => {
    const other = await buildTestApp();
    try {
      other.blobs.probeWrite = () => Promise.reject(new Error('EROFS: read-only file system'));
      expect(await ready(other)).toEqual({
        status: 503,
        body: { status: 'not-ready', checks: { database: 'ok', migrations: 'ok', blobStore: 'not-writable', lifecycle: 'serving' } },
      });
      // The liveness answer is unchanged: the process is alive.
      expect((await other.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    } finally {
      await other.close();
    }
  });

  it('answers 503 when the database lacks a migration this build expects', async () => {
    const other = await buildTestApp();
    try {
      await other.database.db.execute(sql`delete from drizzle.__drizzle_migrations where created_at = (select max(created_at) from drizzle.__drizzle_migrations)`);
      expect(await ready(other)).toMatchObject({ status: 503, body: { status: 'not-ready', checks: { database: 'ok', migrations: 'behind' } } });
    } finally {
      await other.close();
    }
  });

  it('answers 503 when the database is gone', async () => {
    const other = await buildTestApp();
    await other.database.close();
    try {
      expect(await ready(other)).toMatchObject({ status: 503, body: { status: 'not-ready', checks: { database: 'unreachable', migrations: 'unknown' } } });
    } finally {
      // Its database is closed already (as health.test.ts does).
      await other.app.close();
    }
  });

  it('answers 503 while the instance drains, though everything else is fine', async () => {
    shutdown.startDraining();
    expect(await ready()).toEqual({
      status: 503,
      body: { status: 'not-ready', checks: { database: 'ok', migrations: 'ok', blobStore: 'ok', lifecycle: 'draining' } },
    });
  });
});

describe.runIf(testDatabaseKind === 'postgres')('readiness through a database outage (PostgreSQL)', () => {
  it('reports not ready while its database refuses connections, then ready again on its own', async () => {
    const other = await buildTestApp();
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    const name = ((await other.database.db.execute(sql`select current_database() as name`)) as unknown as { rows: Array<{ name: string }> }).rows[0]?.name;
    if (!name) throw new Error('no database name');
    try {
      expect((await ready(other)).status).toBe(200);
      // The database "stops" for this app: no new connections, and the open ones cut.
      await admin.query(`alter database ${name} allow_connections false`);
      await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [name]);
      const down = await until('readiness to say the database is unreachable', async () => {
        const answer = await ready(other);
        return answer.status === 503 ? answer : undefined;
      }, 60_000);
      expect(down.body).toMatchObject({ status: 'not-ready', checks: { database: 'unreachable', migrations: 'unknown', lifecycle: 'serving' } });
      // The liveness route stays a liveness answer: it says the database is unreachable, the process is up.
      expect((await other.app.inject({ method: 'GET', url: '/api/health' })).json()).toMatchObject({ database: 'unreachable' });

      await admin.query(`alter database ${name} allow_connections true`);
      const up = await until('readiness to come back on its own', async () => {
        const answer = await ready(other);
        return answer.status === 200 ? answer : undefined;
      }, 60_000);
      expect(up.body.status).toBe('ready');
    } finally {
      await admin.query(`alter database ${name} allow_connections true`).catch(() => undefined);
      await admin.end();
      await other.close();
    }
  });
});
