/**
 * Migration 0010 moves the queue state of reports, file tasks and backup runs into `jobs`:
 * a database written by the release before keeps its recent reports, file tasks and backup
 * history, and a report left queued or running is made after the upgrade.
 */
import { rm } from 'node:fs/promises';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/client.js';
import { migrationsUpTo, readJournal } from '../features/backups/migrations.js';
import { findReport } from '../features/reports/repository.js';
import { openEmptyTestDatabase } from '../test/test-database.js';
import { claimNextJob } from './queue.js';

const IDS = {
  reportDone: '00000000-0000-4000-8000-000000000001',
  reportQueued: '00000000-0000-4000-8000-000000000002',
  reportRunning: '00000000-0000-4000-8000-000000000003',
  check: '00000000-0000-4000-8000-000000000004',
  backup: '00000000-0000-4000-8000-000000000005',
};

let database: Database | undefined;
afterAll(async () => database?.close());

/** Rows as the release before 0010 wrote them. */
async function writeOldRows(db: Database['db']): Promise<void> {
  await db.execute(sql`insert into users (id, employee_id, name, role, password_hash) values (7, 'ADM7', 'Asha', 'Admin', 'x')`);
  await db.execute(sql`
    insert into reports (id, kind, params, division, dedupe_key, requested_by_user_id, requested_by_employee_id, status, progress,
      record_count, summary, file_hash, file_name, file_size_bytes, content_type, attempts, created_at, started_at, finished_at, expires_at)
    values
      (${IDS.reportDone}, 'sse-cof-pdf', '{"division":"RTM/WR"}', 'RTM/WR', ${'a'.repeat(64)}, 7, 'ADM7', 'done', 100,
        12, '{"cofCount":12}', ${'f'.repeat(64)}, 'SSE.pdf', 2048, 'application/pdf', 1, now() - interval '2 hours', now() - interval '2 hours', now() - interval '1 hour', now() + interval '6 days'),
      (${IDS.reportQueued}, 'inspection-pdf', '{}', null, ${'b'.repeat(64)}, 7, 'ADM7', 'queued', 0,
        null, null, null, null, null, null, 0, now() - interval '30 minutes', null, null, now() + interval '7 days')`);
  await db.execute(sql`
    insert into reports (id, kind, params, dedupe_key, requested_by_user_id, requested_by_employee_id, status, progress, claimed_by, heartbeat_at, attempts, created_at, started_at, expires_at)
    values (${IDS.reportRunning}, 'machine-dashboard', '{}', ${'c'.repeat(64)}, 7, 'ADM7', 'running', 40, 'gone-host-1-deadbeef', now() - interval '1 hour', 1,
      now() - interval '20 minutes', now() - interval '1 hour', now() + interval '7 days')`);
  await db.execute(sql`
    insert into file_tasks (id, kind, state, requested_by_employee_id, progress_done, progress_total, summary, started_at, finished_at)
    values (${IDS.check}, 'check', 'done', 'ADM7', 50, 50, '{"missing":1,"corrupt":0,"total":50,"orphans":0}', now() - interval '1 day', now() - interval '1 day')`);
  await db.execute(sql`
    insert into backup_runs (id, name, trigger, state, started_at, finished_at)
    values (${IDS.backup}, 'backup-2026-11-25', 'scheduled', 'done', now() - interval '3 hours', now() - interval '3 hours')`);
}

describe('upgrading to one job queue (migration 0010)', () => {
  it('keeps every report, file task and backup run, and a queued or abandoned report is made after it', async () => {
    database = await openEmptyTestDatabase();
    const before = await migrationsUpTo((await readJournal()).entries.findIndex((e) => e.tag.startsWith('0010_')));
    try {
      await database.migrate(before);
    } finally {
      await rm(before, { recursive: true, force: true });
    }
    await writeOldRows(database.db);
    await database.migrate();
    const { db } = database;

    expect(await findReport(db, IDS.reportDone)).toMatchObject({
      kind: 'sse-cof-pdf',
      status: 'done',
      progress: 100,
      requestedByUserId: 7,
      recordCount: 12,
      summary: { cofCount: 12 },
      fileHash: 'f'.repeat(64),
      fileName: 'SSE.pdf',
      fileSizeBytes: 2048,
    });
    expect(await findReport(db, IDS.reportQueued)).toMatchObject({ status: 'queued', attempts: 0, requestedByUserId: 7 });
    expect(await findReport(db, IDS.reportRunning)).toMatchObject({ status: 'running', progress: 40, claimedBy: 'gone-host-1-deadbeef', attempts: 1 });

    const jobs = (await db.execute(sql`select id, kind, status, result, progress_done, progress_total from jobs where kind not like 'report.%' order by id`)) as unknown as {
      rows: Array<Record<string, unknown>>;
    };
    expect(jobs.rows).toEqual([
      { id: IDS.check, kind: 'files.check', status: 'done', result: { missing: 1, corrupt: 0, total: 50, orphans: 0 }, progress_done: 50, progress_total: 50 },
      { id: IDS.backup, kind: 'backup', status: 'done', result: null, progress_done: 0, progress_total: 0 },
    ]);

    // The abandoned report (its heartbeat an hour old) and the queued one are claimed by a worker of today's release.
    const kinds = ['report.inspection-pdf', 'report.machine-dashboard', 'report.sse-cof-pdf'];
    const claimed = [await claimNextJob(db, kinds, 'new-worker', 60, 3, new Date()), await claimNextJob(db, kinds, 'new-worker', 60, 3, new Date())];
    expect(claimed.map((job) => job?.id).sort()).toEqual([IDS.reportQueued, IDS.reportRunning]);
    expect(await claimNextJob(db, kinds, 'new-worker', 60, 3, new Date())).toBeUndefined();
  });
});
