/**
 * Backups under way, kept as jobs (server/jobs) so every instance and `npm run backup` see
 * them: one backup at a time (the job's unique key), one scheduled backup per interval however
 * many instances run, and no photo file removed while a backup is copying photos
 * (photo-files.ts asks backupUnderWay).
 */
import { randomUUID } from 'node:crypto';
import { and, desc, eq, gt, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client.js';
import { backupRuns, jobs } from '../../db/schema.js';
import { finishJobHere, heartbeatJob, startJobHere } from '../../jobs/index.js';

/** A run whose heartbeat is older than this died with its process. */
export const BACKUP_STALE_MS = 2 * 60_000;
export const BACKUP_HEARTBEAT_MS = 10_000;
/** The job kind of a backup, and its unique key: one backup at a time. */
export const BACKUP_JOB = 'backup';

export type BackupTrigger = 'manual' | 'scheduled';

export type Claim =
  | { claimed: true; runId: string; worker: string }
  | { claimed: false; reason: 'busy'; runningSince: Date }
  | { claimed: false; reason: 'not-due' };

/**
 * Takes the one backup slot. A scheduled claim also needs the last finished backup to be at
 * least `intervalMs` old, so instances that all wake up make one backup between them.
 */
export async function claimBackupRun(db: Db, trigger: BackupTrigger, name: string, now: Date, intervalMs?: number): Promise<Claim> {
  const worker = `backup-${process.pid}-${randomUUID().slice(0, 8)}`;
  const outcome = await startJobHere<'not-due'>(db, {
    kind: BACKUP_JOB,
    uniqueKey: BACKUP_JOB,
    staleMs: BACKUP_STALE_MS,
    staleError: 'The process making this backup stopped before it finished.',
    worker,
    now,
    async refuse(tx) {
      if (trigger !== 'scheduled' || intervalMs === undefined) return undefined;
      const [last] = await tx
        .select({ startedAt: jobs.startedAt })
        .from(jobs)
        .where(and(eq(jobs.kind, BACKUP_JOB), eq(jobs.status, 'done')))
        .orderBy(desc(jobs.startedAt))
        .limit(1);
      return last?.startedAt && now.getTime() - last.startedAt.getTime() < intervalMs ? 'not-due' : undefined;
    },
    record: async (tx, id) => void (await tx.insert(backupRuns).values({ id, name, trigger })),
  });
  if (outcome.started) return { claimed: true, runId: outcome.job.id, worker };
  if ('running' in outcome) return { claimed: false, reason: 'busy', runningSince: outcome.running.startedAt ?? outcome.running.createdAt };
  return { claimed: false, reason: 'not-due' };
}

export async function heartbeat(db: Db, claim: { runId: string; worker: string }): Promise<void> {
  await heartbeatJob(db, claim.runId, claim.worker);
}

export async function finishBackupRun(db: Db, runId: string, outcome: { error?: string }): Promise<void> {
  await finishJobHere(db, runId, outcome.error ? { error: outcome.error } : {}, new Date());
}

/** True while a live backup is copying photos: removing a photo file now could take one it needs. */
export async function backupUnderWay(tx: DbOrTx): Promise<boolean> {
  const [row] = await tx
    .select({ id: jobs.id })
    .from(jobs)
    .where(and(eq(jobs.kind, BACKUP_JOB), eq(jobs.status, 'running'), gt(jobs.heartbeatAt, sql`now() - make_interval(secs => ${BACKUP_STALE_MS / 1000})`)))
    .limit(1);
  return row !== undefined;
}
