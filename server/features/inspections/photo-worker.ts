/**
 * Decodes each uploaded photo once, after its record is committed (docs/architecture.md, 'How an upload and a photo flow'): the
 * upload itself checks only the header, so it costs a fraction of a decode. Here the photo's
 * pixels are read whole, its thumbnail and print copy are made from that one decode, and its
 * records move from 'pending' to 'ready', or to 'undecodable' when the pixels cannot be read
 * (the records view flags those).
 *
 * Bounded three ways: at most half the cores decode at once, so uploads and reads keep the
 * rest; it gives way to uploads (a decode costs several uploads' CPU: while YIELD_TO uploads
 * are in flight it starts none, unless a photo has waited MAX_DEFER_MS), so a burst of phones
 * coming back into coverage is answered first and the decodes follow in the lull; and at most
 * QUEUE_LIMIT hashes wait in memory. What does not fit, and what a crash or a stop left
 * pending, is found again in the database by the sweep, at start and every minute, by
 * whichever instance looks first (a photo decoded twice costs time, never correctness). A
 * thumbnail asked for meanwhile is made on demand (photo-variants.ts).
 */
import { availableParallelism } from 'node:os';
import { and, asc, eq, lt, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { PhotoState } from '../../../common/schemas/inspection.js';
import type { Db } from '../../db/client.js';
import { inspectionLogs } from '../../db/schema.js';
import type { BlobStore } from '../../storage/blob-store.js';
import type { PhotoFiles } from './photo-files.js';
import { writePhotoVariants } from './photo-variants.js';

const QUEUE_LIMIT = 5_000;
const SWEEP_BATCH = 500;
const SWEEP_INTERVAL_MS = 60_000;
/** A pending photo this old is taken to be nobody's in-memory work any more. */
const STALE_AFTER_MS = 2 * 60_000;
/** Uploads in flight at which no new decode starts. */
const YIELD_TO = 2;
/** The longest a queued photo waits for uploads to quieten down. */
const MAX_DEFER_MS = 15_000;


export interface PhotoWorker {
  /** Queues a photo whose record was just committed. */
  enqueue(hash: string): void;
  /** Tells the worker an upload is under way; call what it answers when the upload ends. */
  uploadStarted(): () => void;
  /** Queues the photos still pending in the database (all, or those older than a while); answers how many. */
  sweep(options?: { staleOnly?: boolean }): Promise<number>;
  /** Resolves once nothing is queued or being decoded. */
  idle(): Promise<void>;
  /** This instance's photos waiting in memory and being decoded now (the metrics). */
  backlog(): { queued: number; decoding: number };
  start(): void;
  /** Ends the timer, forgets the queue (the sweep finds it again) and waits for the decodes under way. */
  stop(): Promise<void>;
}

export function createPhotoWorker(deps: {
  db: Db;
  blobs: BlobStore;
  photoFiles: PhotoFiles;
  log?: FastifyBaseLogger;
  concurrency?: number;
}): PhotoWorker {
  const { db, blobs } = deps;
  const limit = deps.concurrency ?? Math.max(1, Math.floor(availableParallelism() / 2));
  /** Queued or being decoded: one decode per photo at a time. */
  const known = new Set<string>();
  const queue: Array<{ hash: string; queuedAt: number }> = [];
  const running = new Set<Promise<void>>();
  let uploadsInFlight = 0;
  let deferTimer: NodeJS.Timeout | null = null;
  let idleWaiters: (() => void)[] = [];
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;

  async function decode(hash: string): Promise<void> {
    if (!(await blobs.exists(hash))) {
      // Deleted with its records, or lost from the store: the file tools report a missing
      // photo; a record still pending stays so and is looked at again by a later sweep.
      return;
    }
    const outcome = await writePhotoVariants(blobs, hash, await blobs.read(hash));
    const state: PhotoState = outcome === 'remade' ? 'ready' : 'undecodable';
    await db
      .update(inspectionLogs)
      .set({ photoState: state })
      .where(and(eq(inspectionLogs.imageHash, hash), eq(inspectionLogs.photoState, 'pending')));
    if (state === 'undecodable') deps.log?.warn({ hash }, 'an uploaded photo cannot be decoded; its records are flagged');
    // Its last record may have been deleted while it was decoded: the files made then go too,
    // under the photo's lock, unless a record (a new upload of the same bytes) uses it.
    if (!(await blobs.exists(hash))) await deps.photoFiles.removeIfUnused(hash);
  }

  /** Whether a decode may start now: uploads are quiet, or the oldest photo has waited long enough. */
  function mayStart(): boolean {
    const oldest = queue[0];
    if (!oldest) return false;
    if (uploadsInFlight < YIELD_TO) return true;
    const waited = Date.now() - oldest.queuedAt;
    if (waited >= MAX_DEFER_MS) return true;
    // Look again when the oldest has waited its most, if uploads have not quietened by then.
    if (!deferTimer) {
      deferTimer = setTimeout(() => {
        deferTimer = null;
        pump();
      }, MAX_DEFER_MS - waited);
      deferTimer.unref();
    }
    return false;
  }

  function pump(): void {
    while (!stopped && running.size < limit && mayStart()) {
      const hash = queue.shift()?.hash;
      if (hash === undefined) break;
      const work: Promise<void> = decode(hash)
        .catch((error: unknown) => deps.log?.warn({ hash, err: error }, 'photo decode failed; the sweep will try again'))
        .finally(() => {
          known.delete(hash);
          running.delete(work);
          pump();
          settleIdle();
        });
      running.add(work);
    }
  }

  function settleIdle(): void {
    if (queue.length > 0 || running.size > 0) return;
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const resolve of waiters) resolve();
  }

  function enqueue(hash: string): void {
    if (stopped || known.has(hash) || queue.length >= QUEUE_LIMIT) return;
    known.add(hash);
    queue.push({ hash, queuedAt: Date.now() });
    pump();
  }

  async function sweep(options: { staleOnly?: boolean } = {}): Promise<number> {
    const rows = await db
      .selectDistinct({ hash: inspectionLogs.imageHash, submittedAt: inspectionLogs.submittedAt })
      .from(inspectionLogs)
      .where(
        and(
          eq(inspectionLogs.photoState, 'pending'),
          options.staleOnly ? lt(inspectionLogs.submittedAt, sql`now() - make_interval(secs => ${STALE_AFTER_MS / 1000})`) : undefined,
        ),
      )
      .orderBy(asc(inspectionLogs.submittedAt))
      .limit(SWEEP_BATCH);
    let queued = 0;
    for (const { hash } of rows) {
      if (hash && !known.has(hash)) {
        enqueue(hash);
        queued++;
      }
    }
    return queued;
  }

  return {
    enqueue,
    uploadStarted() {
      uploadsInFlight++;
      let ended = false;
      return () => {
        if (ended) return;
        ended = true;
        uploadsInFlight--;
        pump();
      };
    },
    sweep,
    backlog: () => ({ queued: queue.length, decoding: running.size }),
    idle() {
      if (queue.length === 0 && running.size === 0) return Promise.resolve();
      return new Promise<void>((resolve) => idleWaiters.push(resolve));
    },
    start() {
      if (timer) return;
      stopped = false;
      void sweep().catch((error: unknown) => deps.log?.warn({ err: error }, 'photo worker sweep failed'));
      timer = setInterval(() => {
        void sweep({ staleOnly: true }).catch((error: unknown) => deps.log?.warn({ err: error }, 'photo worker sweep failed'));
      }, SWEEP_INTERVAL_MS);
      timer.unref();
    },
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      timer = null;
      if (deferTimer) clearTimeout(deferTimer);
      deferTimer = null;
      for (const { hash } of queue.splice(0)) known.delete(hash);
      await Promise.allSettled([...running]);
      settleIdle();
    },
  };
}
