import { and, count, desc, eq, gt, inArray, lte, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { inspectionLogs, reports } from '../../db/schema.js';

export type ReportRow = typeof reports.$inferSelect;
export type NewReportRow = typeof reports.$inferInsert;

export async function insertReport(db: DbOrTx, row: NewReportRow): Promise<ReportRow> {
  const [stored] = await db.insert(reports).values(row).returning();
  if (!stored) throw new Error('report insert returned nothing');
  return stored;
}

/**
 * Inserts a report; undefined when an unfinished one with the same dedupe key exists already
 * (reports_unfinished_dedupe_uq: the same request made at the same moment elsewhere).
 */
export async function insertReportUnlessQueued(db: DbOrTx, row: NewReportRow): Promise<ReportRow | undefined> {
  const [stored] = await db.insert(reports).values(row).onConflictDoNothing().returning();
  return stored;
}

export async function findReport(db: DbOrTx, id: string): Promise<ReportRow | undefined> {
  const [row] = await db.select().from(reports).where(eq(reports.id, id)).limit(1);
  return row;
}

/** The newest unexpired report asked with the same parameters on the same data: made, or being made. */
export async function findReusableReport(db: DbOrTx, dedupeKey: string, now: Date): Promise<ReportRow | undefined> {
  const [row] = await db
    .select()
    .from(reports)
    .where(and(eq(reports.dedupeKey, dedupeKey), inArray(reports.status, ['queued', 'running', 'done']), gt(reports.expiresAt, now)))
    .orderBy(desc(reports.createdAt))
    .limit(1);
  return row;
}

/** First key of the two-key advisory locks of report requesters (the second is the user's ID). */
const REQUESTER_LOCK_CLASS = 47_107;

/**
 * Holds the requester's lock until the transaction ends: one user's requests count their
 * unfinished reports and queue a new one one at a time, on every instance.
 */
export async function lockRequester(tx: DbOrTx, userId: number): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${REQUESTER_LOCK_CLASS}, ${userId})`);
}

/** The user's reports queued or being made (an expired one will never be made: it does not count). */
export async function countUnfinishedReportsOf(db: DbOrTx, userId: number, now: Date): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(reports)
    .where(and(eq(reports.requestedByUserId, userId), inArray(reports.status, ['queued', 'running']), gt(reports.expiresAt, now)));
  return row?.n ?? 0;
}

/** Removes expired reports' rows and answers their files' hashes. */
export async function deleteExpiredReports(db: DbOrTx, now: Date, limit: number): Promise<string[]> {
  const expired = db.select({ id: reports.id }).from(reports).where(lte(reports.expiresAt, now)).limit(limit);
  const rows = await db.delete(reports).where(inArray(reports.id, expired)).returning({ fileHash: reports.fileHash });
  return [...new Set(rows.flatMap((r) => (r.fileHash ? [r.fileHash] : [])))];
}

/** Whether any report or inspection still points at these bytes. */
export async function blobStillUsed(db: DbOrTx, hash: string): Promise<boolean> {
  const [report] = await db.select({ id: reports.id }).from(reports).where(eq(reports.fileHash, hash)).limit(1);
  if (report) return true;
  const [photo] = await db.select({ id: inspectionLogs.id }).from(inspectionLogs).where(eq(inspectionLogs.imageHash, hash)).limit(1);
  return photo !== undefined;
}

/** A user's unexpired reports, newest first. */
export async function listReportsOf(db: DbOrTx, userId: number, options: { kind: string | undefined; limit: number; now: Date }): Promise<ReportRow[]> {
  return db
    .select()
    .from(reports)
    .where(and(eq(reports.requestedByUserId, userId), gt(reports.expiresAt, options.now), options.kind ? eq(reports.kind, options.kind) : undefined))
    .orderBy(desc(reports.createdAt))
    .limit(options.limit);
}

/**
 * Claims a job no worker holds: queued, or running with a heartbeat older than `staleSeconds`
 * (its instance died or was cut off). Users take turns: the job is the oldest of the requester
 * served least recently (one never served first, then by the latest start of any of their
 * reports), so one user's many reports cannot keep another's waiting behind them all. SKIP
 * LOCKED lets instances claim at the same time without waiting for or taking each other's job.
 * Heartbeats use the database's clock, so instances with drifting clocks agree on what is stale.
 */
export async function claimNextJob(db: DbOrTx, worker: string, staleSeconds: number, maxAttempts: number, now: Date): Promise<ReportRow | undefined> {
  const result = await db.execute<{ id: string }>(sql`
    update reports set status = 'running', claimed_by = ${worker}, heartbeat_at = now(),
      started_at = coalesce(started_at, now()), attempts = attempts + 1
    where id = (
      select r.id from reports r
      where (r.status = 'queued' or (r.status = 'running' and r.heartbeat_at < now() - make_interval(secs => ${staleSeconds})))
        and r.attempts < ${maxAttempts} and r.expires_at > ${now.toISOString()}
      order by (select max(s.started_at) from reports s where s.requested_by_user_id = r.requested_by_user_id) asc nulls first, r.created_at
      for update of r skip locked
      limit 1
    )
    returning id`);
  const id = rowsOf<{ id: string }>(result)[0]?.id;
  return id === undefined ? undefined : findReport(db, id);
}

/**
 * Fails jobs that have been started `maxAttempts` times and are not running now (stale, or
 * queued again): they kill their worker. Claims skip them, so none is started once more.
 */
export async function failWornOutJobs(db: DbOrTx, staleSeconds: number, maxAttempts: number, error: string): Promise<number> {
  const result = await db.execute<{ id: string }>(sql`
    update reports set status = 'failed', error = ${error}, claimed_by = null, finished_at = now()
    where attempts >= ${maxAttempts}
      and (status = 'queued' or (status = 'running' and heartbeat_at < now() - make_interval(secs => ${staleSeconds})))
    returning id`);
  return rowsOf(result).length;
}

/** Renews a job's heartbeat and progress; false when this worker no longer holds it. */
export async function heartbeatJob(db: DbOrTx, id: string, worker: string, progress: number): Promise<boolean> {
  const rows = await db
    .update(reports)
    .set({ heartbeatAt: sql`now()`, progress })
    .where(and(eq(reports.id, id), eq(reports.claimedBy, worker), eq(reports.status, 'running')))
    .returning({ id: reports.id });
  return rows.length > 0;
}

/** Records a finished job, if this worker still holds it. */
export async function completeJob(db: DbOrTx, id: string, worker: string, values: Partial<NewReportRow>): Promise<ReportRow | undefined> {
  const [row] = await db
    .update(reports)
    .set({ ...values, status: 'done', progress: 100, claimedBy: null, error: null })
    .where(and(eq(reports.id, id), eq(reports.claimedBy, worker), eq(reports.status, 'running')))
    .returning();
  return row;
}

export async function failJob(db: DbOrTx, id: string, worker: string, error: string, now: Date): Promise<void> {
  await db
    .update(reports)
    .set({ status: 'failed', error, claimedBy: null, finishedAt: now })
    .where(and(eq(reports.id, id), eq(reports.claimedBy, worker), eq(reports.status, 'running')));
}

/** Hands this worker's unfinished jobs back to the queue (a clean shutdown), for any instance to take. */
export async function releaseJobs(db: DbOrTx, worker: string): Promise<void> {
  await db
    .update(reports)
    .set({ status: 'queued', claimedBy: null, heartbeatAt: null })
    .where(and(eq(reports.claimedBy, worker), eq(reports.status, 'running')));
}

/**
 * Marks every running job stale, so it is claimed again (or failed, if worn out) at once: only
 * for the embedded database, where this process holds the data folder's lock, so a job left
 * running can only be an earlier process's that died.
 */
export async function markOrphanedJobsStale(db: DbOrTx): Promise<void> {
  await db.update(reports).set({ heartbeatAt: new Date(0) }).where(eq(reports.status, 'running'));
}

function rowsOf<T>(result: unknown): T[] {
  // node-postgres answers {rows}; PGlite answers {rows} too, but be strict about the shape.
  const rows = (result as { rows?: T[] }).rows;
  if (!Array.isArray(rows)) throw new Error('unexpected result shape from db.execute');
  return rows;
}
