import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIVISIONS } from '../../../../common/constants.js';
import { createPostgresTestDatabase, testDatabaseKind } from '../../../test/test-database.js';
import { loadScaledData, openTarget, type ScaleSummary, type Target } from './load.js';
import { topUpCurveRecords } from './rollout.js';

const RECORDS = 1_500;
const CURVES = 500;
const PHOTOS = 3;
const CURVE_RECORDS = 450;

interface Row {
  record_id: string;
  type: string;
  division_railway: string;
  cof_value: string | null;
  service_update: string | null;
  image_hash: string;
  image_size_bytes: number;
  submitted_at: Date | string;
}

describe('the demo seed at scale (npm run bench:data)', () => {
  let dataDir: string;
  let databaseUrl: string | undefined;
  let summary: ScaleSummary;
  let target: Target;
  let generated: Row[];

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'hkmi-scale-test-'));
    databaseUrl = testDatabaseKind === 'postgres' ? await createPostgresTestDatabase() : undefined;
    summary = await loadScaledData({ databaseUrl, dataDir, count: RECORDS, curves: CURVES, curveRecords: CURVE_RECORDS, photos: PHOTOS, demo: true });
    target = await openTarget({ databaseUrl, dataDir });
    // The generated records are the ones on the generated photos: the demo seed's have photos of their own.
    generated = await target.client.query<Row>(
      `select record_id, type, division_railway, cof_value::text, service_update, image_hash, image_size_bytes, submitted_at
         from inspection_logs where image_hash = any($1::varchar[])`,
      [summary.photos.map((p) => p.hash)],
    );
  }, 180_000);

  afterAll(async () => {
    await target?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('adds the records asked for and tops the register up to the size asked for', async () => {
    expect(summary.inspectionsAdded).toBe(RECORDS);
    expect(generated).toHaveLength(RECORDS);
    const [counts] = await target.client.query<{ curves: number }>('select count(*)::int as curves from consolidated_curve_details');
    expect(counts?.curves).toBe(CURVES);
    expect(summary.curvesTotal).toBe(CURVES);
  });

  it('points every record at a real photo in the blob store, with its size', async () => {
    for (const photo of summary.photos) {
      const file = path.join(dataDir, 'blobs', photo.hash.slice(0, 2), photo.hash.slice(2, 4), photo.hash);
      expect((await stat(file)).size).toBe(photo.sizeBytes);
    }
    const sizes = new Map(summary.photos.map((p) => [p.hash, p.sizeBytes]));
    for (const row of generated) expect(row.image_size_bytes).toBe(sizes.get(row.image_hash));
  });

  it('spreads the records over the five divisions, both types, each with only its own columns', () => {
    expect(new Set(generated.map((r) => r.division_railway))).toEqual(new Set(DIVISIONS));
    const cof = generated.filter((r) => r.type === 'CoF');
    const service = generated.filter((r) => r.type === 'Service');
    expect(cof.length + service.length).toBe(RECORDS);
    expect(cof.length / RECORDS).toBeGreaterThan(0.2);
    expect(cof.length / RECORDS).toBeLessThan(0.36);
    expect(cof.every((r) => r.cof_value !== null && r.service_update === null)).toBe(true);
    expect(service.every((r) => r.cof_value === null && r.service_update !== null)).toBe(true);
  });

  it('gives unique record IDs in the app form, none submitted in the future', () => {
    expect(new Set(generated.map((r) => r.record_id)).size).toBe(RECORDS);
    expect(generated.every((r) => /^INS-\d{8}-[0-9A-Z]{6}$/.test(r.record_id))).toBe(true);
    const now = Date.now();
    expect(generated.every((r) => new Date(r.submitted_at).getTime() <= now)).toBe(true);
  });

  it('files the follow-up actions the generated visits open and close, by the upload\'s rule', async () => {
    const kinds = await target.client.query<{ kind: string; state: string; n: number }>(
      'select kind, state, count(*)::int as n from follow_up_actions group by kind, state',
    );
    const count = (state: string) => kinds.filter((k) => k.state === state).reduce((n, k) => n + k.n, 0);
    expect(summary.actions).toMatchObject({ open: count('open'), closed: count('closed') });
    expect(new Set(kinds.filter((k) => k.state === 'open').map((k) => k.kind)).size).toBeGreaterThanOrEqual(3);
    expect(count('closed')).toBeGreaterThan(0);
  });

  it('tops the machine rollout sheet up to the records asked for, one per curve, and adds none the second time', async () => {
    const counts = async () =>
      (await target.client.query<{ records: number; curves: number }>(
        'select count(*)::int as records, count(distinct (section, curve_number, line))::int as curves from curve_records',
      ))[0];
    expect(await counts()).toEqual({ records: CURVE_RECORDS, curves: CURVE_RECORDS });
    expect(await topUpCurveRecords(target.client, CURVE_RECORDS, '2026-01-01')).toEqual([]);
    expect(await counts()).toEqual({ records: CURVE_RECORDS, curves: CURVE_RECORDS });
  });
});
