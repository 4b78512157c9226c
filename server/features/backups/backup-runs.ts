/**
 * Backups under way, kept in the database so every instance and `npm run backup` see them:
 * one backup at a time, one scheduled backup per interval however many instances run, and no
 * photo file removed while a backup is copying photos (photo-files.ts asks backupUnderWay).
 */
import { randomUUID } from 'node:crypto';
import { and, desc, eq, gt, lt, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client.js';
import { backupRuns } from '../../db/schema.js';

/** A run whose heartbeat is older than this died with its process. */
export const BACKUP_STALE_MS = 2 * 60_000;
export const BACKUP_HEARTBEAT_MS = 10_000;

export type BackupTrigger = 'manual' | 'scheduled';

export type Claim =
  | { claimed: true; runId: string }
  | { claimed: false; reason: 'busy'; runningSince: Date }
  | { claimed: false; reason: 'not-due' };

/**
 * Takes the one backup slot. A scheduled claim also needs the last finished backup to be at
 * least `intervalMs` old, so instances that all wake up make one backup between them.
 */
export async function claimBackupRun(db: Db, trigger: BackupTrigger, name: string, now: Date, intervalMs?: number): Promise<Claim> {
  return db.transaction(async (tx) => {
    // Claims take turns: two instances cannot both see "none running" and both start.
    await tx.execute(sql`lock table ${backupRuns} in share row exclusive mode`);
    await tx
      .update(backupRuns)
      .set({ state: 'failed', finishedAt: now, error: 'The process making this backup stopped before it finished.' })
      .where(and(eq(backupRuns.state, 'running'), lt(backupRuns.heartbeatAt, new Date(now.getTime() - BACKUP_STALE_MS))));
    const [running] = await tx.select().from(backupRuns).where(eq(backupRuns.state, 'running')).limit(1);
    if (running) return { claimed: false, reason: 'busy', runningSince: running.startedAt };
    if (trigger === 'scheduled' && intervalMs !== undefined) {
      const [last] = await tx
        .select({ startedAt: backupRuns.startedAt })
        .from(backupRuns)
        .where(eq(backupRuns.state, 'done'))
        .orderBy(desc(backupRuns.startedAt))
        .limit(1);
      if (last && now.getTime() - last.startedAt.getTime() < intervalMs) return { claimed: false, reason: 'not-due' };
    }
    const runId = randomUUID();
    await tx.insert(backupRuns).values({ id: runId, name, trigger, startedAt: now, heartbeatAt: now });
    return { claimed: true, runId };
  });
}

export async function heartbeat(db: Db, runId: string): Promise<void> {
  await db.update(backupRuns).set({ heartbeatAt: new Date() }).where(and(eq(backupRuns.id, runId), eq(backupRuns.state, 'running')));
}

export async function finishBackupRun(db: Db, runId: string, outcome: { error?: string }): Promise<void> {
  await db
    .update(backupRuns)
    .set({ state: outcome.error ? 'failed' : 'done', finishedAt: new Date(), error: outcome.error ?? null })
    .where(eq(backupRuns.id, runId));
}

/** True while a live backup is copying photos: removing a photo file now could take one it needs. */
export async function backupUnderWay(tx: DbOrTx): Promise<boolean> {
  const [row] = await tx
    .select({ id: backupRuns.id })
    .from(backupRuns)
    .where(and(eq(backupRuns.state, 'running'), gt(backupRuns.heartbeatAt, sql`now() - make_interval(secs => ${BACKUP_STALE_MS / 1000})`)))
    .limit(1);
  return row !== undefined;
}
