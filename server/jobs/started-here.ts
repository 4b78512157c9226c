/**
 * Jobs the asking instance runs itself (a file task, a backup), one at a time per unique key
 * however many instances run: the start takes the key's lock, fails a holder whose heartbeat
 * stopped (its process died: the work, a scan or a copy, is started afresh on request rather
 * than resumed), and either joins the job still running or starts a new one claimed by this
 * process. Heartbeat, progress and the finish go through the same `jobs` row as queued jobs.
 */
import { randomUUID } from 'node:crypto';
import { and, eq, inArray, lt, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../db/client.js';
import { jobs } from '../db/schema.js';
import { insertJob, type JobRow } from './queue.js';

/** First key of the two-key advisory locks of jobs started here (the second is the key's hash). */
const START_LOCK_CLASS = 47_108;

export interface StartRules<Refusal> {
  /** The job's kind and its unique key: one unfinished job per key. */
  kind: string;
  uniqueKey: string;
  /** A running job whose heartbeat is older than this died with its process. */
  staleMs: number;
  /** What a job failed for a stopped heartbeat says. */
  staleError: string;
  /** This process's worker ID: the new job is claimed by it. */
  worker: string;
  now: Date;
  ownerUserId?: number | null;
  expiresAt?: Date | null;
  /** Checked under the key's lock once none is running: a reason not to start, or undefined to start. */
  refuse?: (tx: DbOrTx) => Promise<Refusal | undefined>;
  /** Writes the feature's own record of the new job, in the same transaction. */
  record(tx: DbOrTx, jobId: string): Promise<void>;
}

/** Started, or joined to the one running, or (only when `refuse` can refuse) refused. */
export type Started<Refusal> =
  | { started: true; job: JobRow }
  | { started: false; running: JobRow }
  | ([Refusal] extends [never] ? never : { started: false; refused: Refusal });

/** Fails the running jobs of these kinds (or this key) whose heartbeat stopped before `now - staleMs`. */
export async function failStaleJobs(db: DbOrTx, where: { kinds?: readonly string[]; uniqueKey?: string }, staleMs: number, error: string, now: Date): Promise<void> {
  await db
    .update(jobs)
    .set({ status: 'failed', error, finishedAt: now, claimedBy: null })
    .where(
      and(
        eq(jobs.status, 'running'),
        where.kinds === undefined ? undefined : inArray(jobs.kind, [...where.kinds]),
        where.uniqueKey === undefined ? undefined : eq(jobs.uniqueKey, where.uniqueKey),
        lt(jobs.heartbeatAt, new Date(now.getTime() - staleMs)),
      ),
    );
}

/** Starts the key's job here, or answers the one running (on any instance), or the refusal. */
export async function startJobHere<Refusal = never>(db: Db, rules: StartRules<Refusal>): Promise<Started<Refusal>> {
  return db.transaction(async (tx) => {
    // Starts of one key take turns: two instances cannot both see "none running" and both start.
    await tx.execute(sql`select pg_advisory_xact_lock(${START_LOCK_CLASS}, hashtext(${rules.uniqueKey}))`);
    await failStaleJobs(tx, { uniqueKey: rules.uniqueKey }, rules.staleMs, rules.staleError, rules.now);
    const [running] = await tx
      .select()
      .from(jobs)
      .where(and(eq(jobs.uniqueKey, rules.uniqueKey), eq(jobs.status, 'running')))
      .limit(1);
    if (running) return { started: false, running };
    const refused = await rules.refuse?.(tx);
    if (refused !== undefined) return { started: false, refused } as Started<Refusal>;
    const job = await insertJob(tx, {
      id: randomUUID(),
      kind: rules.kind,
      uniqueKey: rules.uniqueKey,
      ownerUserId: rules.ownerUserId ?? null,
      status: 'running',
      claimedBy: rules.worker,
      attempts: 1,
      createdAt: rules.now,
      startedAt: rules.now,
      heartbeatAt: rules.now,
      expiresAt: rules.expiresAt ?? null,
    });
    await rules.record(tx, job.id);
    return { started: true, job };
  });
}

/** Writes how a job started here ended (whoever holds it: it runs in this process). */
export async function finishJobHere(db: DbOrTx, id: string, outcome: { result?: unknown } | { error: string }, now: Date): Promise<void> {
  const failed = 'error' in outcome;
  await db
    .update(jobs)
    .set({
      status: failed ? 'failed' : 'done',
      result: failed ? null : (outcome.result ?? null),
      error: failed ? outcome.error : null,
      finishedAt: now,
      heartbeatAt: now,
      claimedBy: null,
    })
    .where(eq(jobs.id, id));
}
