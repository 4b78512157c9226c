/**
 * Keeps photo files and inspection rows true to each other: no row points at a missing photo
 * and no photo outlives its last record.
 *
 * Photos are content-addressed, so several records may share one file. Whoever writes a row
 * for a photo (an upload) or removes a photo's file (after a deletion) first takes the
 * photo's lock, a PostgreSQL transaction-level advisory lock on its hash, so "is anyone still
 * using it?" and "delete the file" cannot interleave with "the file is there, add a row".
 * Deletions queue the hash in `blob_deletions` in the same transaction as the row deletion;
 * the files go right after the commit, and whatever is left (a crash, a failing disk) is
 * retried at start and every few minutes.
 */
import { asc, count, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, DbOrTx } from '../../db/client.js';
import { blobDeletions, inspectionLogs } from '../../db/schema.js';
import type { BlobStore } from '../../storage/blob-store.js';
import { backupUnderWay } from '../backups/index.js';

/** First key of the two-key advisory locks of photos (the second is the hash's hashtext). */
const PHOTO_LOCK_CLASS = 47_106;
const SWEEP_BATCH = 200;
const SWEEP_INTERVAL_MS = 5 * 60_000;

/** Holds the photo's lock until the transaction ends. */
export async function lockPhoto(tx: DbOrTx, hash: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${PHOTO_LOCK_CLASS}, hashtext(${hash}))`);
}

async function recordsUsing(tx: DbOrTx, hash: string): Promise<number> {
  const [row] = await tx.select({ n: count() }).from(inspectionLogs).where(eq(inspectionLogs.imageHash, hash));
  return row?.n ?? 0;
}

/** Queues photos for removal; called in the transaction that deletes their records. */
export async function queuePhotoRemoval(tx: DbOrTx, hashes: readonly string[]): Promise<void> {
  if (hashes.length === 0) return;
  await tx
    .insert(blobDeletions)
    .values(hashes.map((hash) => ({ hash })))
    .onConflictDoNothing();
}

export interface PhotoFiles {
  /** Removes the queued photos (all, or only these) that no record uses any more. */
  sweep(only?: readonly string[]): Promise<{ removed: number; kept: number; failed: number; deferred: number }>;
  /** Removes one photo's file unless a record uses it (an upload whose row was not written). */
  removeIfUnused(hash: string): Promise<void>;
  /** Sweeps now and then every few minutes until stop(). */
  start(): void;
  /** Ends the timer and waits for a sweep under way. */
  stop(): Promise<void>;
}

export function createPhotoFiles(deps: { db: Db; blobs: BlobStore; log?: FastifyBaseLogger }): PhotoFiles {
  const { db, blobs } = deps;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<unknown> | null = null;

  /** 'removed'; 'kept' when a record still uses it; 'deferred' while a backup copies photos. */
  async function removeUnderLock(hash: string): Promise<'removed' | 'kept' | 'deferred'> {
    return db.transaction(async (tx) => {
      await lockPhoto(tx, hash);
      // A backup's snapshot may name this photo for a record deleted since: it stays queued
      // until the backup has copied it, and the next sweep removes it.
      if (await backupUnderWay(tx)) return 'deferred';
      const used = (await recordsUsing(tx, hash)) > 0;
      // While the lock is held no upload can add a row for these bytes.
      if (!used) await blobs.delete(hash);
      await tx.delete(blobDeletions).where(eq(blobDeletions.hash, hash));
      return used ? 'kept' : 'removed';
    });
  }

  async function sweep(only?: readonly string[]) {
    const tally = { removed: 0, kept: 0, failed: 0, deferred: 0 };
    if (only && only.length === 0) return tally;
    const queued = await db
      .select({ hash: blobDeletions.hash })
      .from(blobDeletions)
      .where(only ? inArray(blobDeletions.hash, [...only]) : undefined)
      .orderBy(asc(blobDeletions.queuedAt))
      .limit(only ? only.length : SWEEP_BATCH);
    for (const { hash } of queued) {
      try {
        const outcome = await removeUnderLock(hash);
        if (outcome === 'removed') tally.removed++;
        else if (outcome === 'kept') tally.kept++;
        else tally.deferred++;
      } catch (error) {
        tally.failed++;
        const message = error instanceof Error ? error.message : String(error);
        deps.log?.warn({ hash, err: error }, 'photo file removal failed; it stays queued');
        await db
          .update(blobDeletions)
          .set({ attempts: sql`${blobDeletions.attempts} + 1`, lastError: message.slice(0, 500) })
          .where(eq(blobDeletions.hash, hash))
          .catch(() => undefined);
      }
    }
    return tally;
  }

  async function removeIfUnused(hash: string): Promise<void> {
    if ((await removeUnderLock(hash)) === 'deferred') await queuePhotoRemoval(db, [hash]);
  }

  function sweepInBackground() {
    if (running) return;
    running = sweep()
      .catch((error: unknown) => deps.log?.warn({ err: error }, 'photo file sweep failed'))
      .finally(() => {
        running = null;
      });
  }

  return {
    sweep,
    removeIfUnused,
    start() {
      if (timer) return;
      sweepInBackground();
      timer = setInterval(sweepInBackground, SWEEP_INTERVAL_MS);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      await running;
    },
  };
}
