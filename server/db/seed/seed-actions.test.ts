/**
 * The demo's follow-up actions: filed from the demo's own visits by the upload's rule, so the
 * first start shows open actions of each kind and closed ones with the visit that closed them.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ACTION_KINDS } from '../../../common/rules/follow-up-actions.js';
import { DiskBlobStore } from '../../storage/disk-blob-store.js';
import { openTestDatabase } from '../../test/test-database.js';
import type { Database } from '../client.js';
import { followUpActions, inspectionLogs } from '../schema.js';
import { seedDemoData } from './index.js';

let database: Database;
let blobDir: string;

beforeAll(async () => {
  database = await openTestDatabase();
  blobDir = await mkdtemp(path.join(os.tmpdir(), 'hkmi-seed-actions-'));
  await seedDemoData(database.db, new DiskBlobStore(blobDir), { today: '2025-03-15' });
}, 120_000);

afterAll(async () => {
  await database?.close();
  if (blobDir) await rm(blobDir, { recursive: true, force: true });
});

it('opens actions of each kind and closes some with a later visit of the demo', async () => {
  const actions = await database.db.select().from(followUpActions);
  const open = new Set(actions.filter((a) => a.state === 'open').map((a) => a.kind));
  expect([...open].sort()).toEqual([...ACTION_KINDS].sort());
  const closed = actions.filter((a) => a.state === 'closed');
  expect(closed.length).toBeGreaterThan(0);
  const records = new Map((await database.db.select().from(inspectionLogs)).map((r) => [r.recordId, r]));
  for (const action of actions) {
    const opener = records.get(action.openedByRecordId ?? '');
    expect(opener, `action ${action.id}'s opening record`).toMatchObject({ section: action.section, curveNumber: action.curveNumber, line: action.line });
    const closer = records.get(action.closedByRecordId ?? '');
    if (action.state === 'closed') expect((closer?.date ?? '') >= (opener?.date ?? ''), `action ${action.id} closed by a later visit`).toBe(true);
  }
});

it('files nothing again on a second start', async () => {
  const before = await database.db.select().from(followUpActions);
  await seedDemoData(database.db, new DiskBlobStore(blobDir), { today: '2025-03-16' });
  expect(await database.db.select().from(followUpActions)).toEqual(before);
});
