/**
 * The demo's follow-up actions: filed from the demo's own visits by the upload's rule, so the
 * first start shows open actions of each kind and closed ones with the visit that closed them.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { daysBetween } from '../../../common/rules/dates.js';
import { ACTION_KINDS } from '../../../common/rules/follow-up-actions.js';
import { DiskBlobStore } from '../../storage/disk-blob-store.js';
import { openTestDatabase } from '../../test/test-database.js';
import type { Database } from '../client.js';
import { followUpActions, inspectionLogs } from '../schema.js';
import { STORY } from './history.js';
import { seedDemoData } from './index.js';

const TODAY = '2025-03-15';

let database: Database;
let blobDir: string;

beforeAll(async () => {
  database = await openTestDatabase();
  blobDir = await mkdtemp(path.join(os.tmpdir(), 'hkmi-seed-actions-'));
  await seedDemoData(database.db, new DiskBlobStore(blobDir), { today: TODAY });
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

it("tells the dashboard's story: friction actions open in the rising section, machines fixed within days, some actions overdue", async () => {
  const actions = await database.db.select().from(followUpActions);
  expect(actions.filter((a) => a.kind === 'cof-high' && a.state === 'open' && a.section === STORY.risingFrictionSection).length).toBeGreaterThanOrEqual(3);
  const daysToClose = actions
    .filter((a) => a.kind === 'machine-not-working' && a.state === 'closed')
    .map((a) => daysBetween(a.openedOn, a.closedOn ?? a.openedOn));
  expect(daysToClose.length).toBeGreaterThan(10);
  expect(daysToClose.filter((days) => days >= 2 && days <= 6).length).toBeGreaterThan(daysToClose.length / 2);
  expect(actions.filter((a) => a.state === 'open' && a.dueDate < TODAY).length).toBeGreaterThan(0);
  expect(actions.filter((a) => a.kind === 'part-stolen' && a.section === STORY.theft.section).length).toBeGreaterThanOrEqual(10);
});

it('files nothing again on a second start', async () => {
  const before = await database.db.select().from(followUpActions);
  await seedDemoData(database.db, new DiskBlobStore(blobDir), { today: '2025-03-16' });
  expect(await database.db.select().from(followUpActions)).toEqual(before);
});
