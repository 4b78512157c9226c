/**
 * The job queue's SQL, over the one `jobs` table. Two ways in:
 * - queued jobs (reports): any instance's worker claims the next one with FOR UPDATE SKIP
 *   LOCKED, renews its heartbeat while it works, and a job whose heartbeat stops is claimed
 *   again by another worker (its instance died), up to a number of attempts;
 * - jobs started here (file tasks, backups): the asking instance runs the job itself, one at a
 *   time per unique key on every instance; a job whose heartbeat stops is failed, and the
 *   next request starts a fresh one.
 * Heartbeats use the database's clock, so instances with drifting clocks agree on what is stale.
 * PGlite is one connection: SKIP LOCKED and advisory locks work there too, with nobody to skip.
 */
import { and, count, eq, gt, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.js';
import { jobs } from '../db/schema.js';

export type JobRow = typeof jobs.$inferSelect;
export type NewJobRow = typeof jobs.$inferInsert;

const UNFINISHED = ['queued', 'running'];

/** First key of the two-key advisory locks of job owners (the second is the user's ID). */
const OWNER_LOCK_CLASS = 47_107;

/**
 * Holds the owner's lock until the transaction ends: one user's requests count their
 * unfinished jobs and queue a new one one at a time, on every instance (per-user caps).
 */
export async function lockOwner(tx: DbOrTx, userId: number): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${OWNER_LOCK_CLASS}, ${userId})`);
}

/** The owner's jobs of these kinds queued or being made (an expired one will never be made: it does not count). */
export async function countUnfinishedOf(db: DbOrTx, userId: number, kinds: readonly string[], now: Date): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(jobs)
    .where(and(eq(jobs.ownerUserId, userId), inArray(jobs.kind, [...kinds]), inArray(jobs.status, UNFINISHED), or(isNull(jobs.expiresAt), gt(jobs.expiresAt, now))));
  return row?.n ?? 0;
}

/** Queues a job; undefined when an unfinished one holds its unique key already (the same request made elsewhere). */
export async function enqueueJob(db: DbOrTx, row: NewJobRow): Promise<JobRow | undefined> {
  const [stored] = await db.insert(jobs).values(row).onConflictDoNothing().returning();
  return stored;
}

/** Queues a job; throws when its unique key is taken (test and migration doubles write rows this way). */
export async function insertJob(db: DbOrTx, row: NewJobRow): Promise<JobRow> {
  const [stored] = await db.insert(jobs).values(row).returning();
  if (!stored) throw new Error('job insert returned nothing');
  return stored;
}

const staleHeartbeat = (staleSeconds: number) => sql`heartbeat_at < now() - make_interval(secs => ${staleSeconds})`;

/**
 * Claims a job of these kinds no worker holds: queued, or running with a stale heartbeat (its
 * instance died or was cut off). Owners take turns: the job is the oldest of the owner served
 * least recently (one never served first, then by the latest start of any of their jobs), so
 * one user's many jobs cannot keep another's waiting behind them all. SKIP LOCKED lets
 * instances claim at the same time without waiting for or taking each other's job.
 */
export async function claimNextJob(db: DbOrTx, kinds: readonly string[], worker: string, staleSeconds: number, maxAttempts: number, now: Date): Promise<JobRow | undefined> {
  if (kinds.length === 0) return undefined;
  const result = await db.execute<{ id: string }>(sql`
    update jobs set status = 'running', claimed_by = ${worker}, heartbeat_at = now(),
      started_at = coalesce(started_at, now()), attempts = attempts + 1
    where id = (
      select j.id from jobs j
      where j.kind in ${kinds}
        and (j.status = 'queued' or (j.status = 'running' and j.heartbeat_at < now() - make_interval(secs => ${staleSeconds})))
        and j.attempts < ${maxAttempts} and (j.expires_at is null or j.expires_at > ${now.toISOString()})
      order by (select max(s.started_at) from jobs s where s.owner_user_id = j.owner_user_id and s.kind in ${kinds}) asc nulls first, j.created_at
      for update of j skip locked
      limit 1
    )
    returning id`);
  const id = rowsOf<{ id: string }>(result)[0]?.id;
  return id === undefined ? undefined : findJob(db, id);
}

export async function findJob(db: DbOrTx, id: string): Promise<JobRow | undefined> {
  const [row] = await db.select().from(jobs).where(eq(jobs.id, id)).limit(1);
  return row;
}

/**
 * Fails jobs of these kinds that have been started `maxAttempts` times and are not running now
 * (stale, or queued again): they kill their worker. Claims skip them, so none is started once more.
 */
export async function failWornOutJobs(db: DbOrTx, kinds: readonly string[], staleSeconds: number, maxAttempts: number, error: string): Promise<number> {
  if (kinds.length === 0) return 0;
  const result = await db.execute<{ id: string }>(sql`
    update jobs set status = 'failed', error = ${error}, claimed_by = null, finished_at = now()
    where kind in ${kinds} and attempts >= ${maxAttempts}
      and (status = 'queued' or (status = 'running' and ${staleHeartbeat(staleSeconds)}))
    returning id`);
  return rowsOf(result).length;
}

/** Renews a job's heartbeat and progress; false when this worker no longer holds it. */
export async function heartbeatJob(db: DbOrTx, id: string, worker: string, progress?: { percent?: number; done?: number; total?: number }): Promise<boolean> {
  const rows = await db
    .update(jobs)
    .set({
      heartbeatAt: sql`now()`,
      ...(progress?.percent === undefined ? {} : { progress: progress.percent }),
      ...(progress?.done === undefined ? {} : { progressDone: progress.done }),
      ...(progress?.total === undefined ? {} : { progressTotal: progress.total }),
    })
    .where(and(eq(jobs.id, id), eq(jobs.claimedBy, worker), eq(jobs.status, 'running')))
    .returning({ id: jobs.id });
  return rows.length > 0;
}

/** Records a finished job, if this worker still holds it. */
export async function completeJob(db: DbOrTx, id: string, worker: string, values: Partial<Pick<NewJobRow, 'result' | 'expiresAt'>> & { finishedAt: Date }): Promise<JobRow | undefined> {
  const [row] = await db
    .update(jobs)
    .set({ ...values, status: 'done', progress: 100, claimedBy: null, error: null })
    .where(and(eq(jobs.id, id), eq(jobs.claimedBy, worker), eq(jobs.status, 'running')))
    .returning();
  return row;
}

/** Records a failed job, if this worker still holds it. */
export async function failJob(db: DbOrTx, id: string, worker: string, error: string, now: Date): Promise<void> {
  await db
    .update(jobs)
    .set({ status: 'failed', error, claimedBy: null, finishedAt: now })
    .where(and(eq(jobs.id, id), eq(jobs.claimedBy, worker), eq(jobs.status, 'running')));
}

/** Hands this worker's unfinished jobs back to the queue (a clean shutdown), for any instance to take. */
export async function releaseJobs(db: DbOrTx, worker: string): Promise<void> {
  await db
    .update(jobs)
    .set({ status: 'queued', claimedBy: null, heartbeatAt: null })
    .where(and(eq(jobs.claimedBy, worker), eq(jobs.status, 'running')));
}

/**
 * Marks every running job of these kinds stale, so it is claimed again (or failed, if worn out)
 * at once: only for the embedded database, where this process holds the data folder's lock, so
 * a job left running can only be an earlier process's that died.
 */
export async function markOrphanedJobsStale(db: DbOrTx, kinds: readonly string[]): Promise<void> {
  if (kinds.length === 0) return;
  await db
    .update(jobs)
    .set({ heartbeatAt: new Date(0) })
    .where(and(inArray(jobs.kind, [...kinds]), eq(jobs.status, 'running')));
}

/** The oldest expired jobs of these kinds, up to `limit`: for their feature to clear what they left, then delete. */
export async function expiredJobIds(db: DbOrTx, kinds: readonly string[], now: Date, limit: number): Promise<string[]> {
  const rows = await db
    .select({ id: jobs.id })
    .from(jobs)
    .where(and(inArray(jobs.kind, [...kinds]), lte(jobs.expiresAt, now)))
    .orderBy(jobs.expiresAt)
    .limit(limit);
  return rows.map((r) => r.id);
}

/** Removes jobs; their feature records go with them (ON DELETE CASCADE). */
export async function deleteJobs(db: DbOrTx, ids: readonly string[]): Promise<void> {
  if (ids.length > 0) await db.delete(jobs).where(inArray(jobs.id, [...ids]));
}

export function rowsOf<T>(result: unknown): T[] {
  // node-postgres answers {rows}; PGlite answers {rows} too, but be strict about the shape.
  const rows = (result as { rows?: T[] }).rows;
  if (!Array.isArray(rows)) throw new Error('unexpected result shape from db.execute');
  return rows;
}
