/**
 * The Admin's file tools (docs/functional-requirements.md, 'Data management'), each a task run by the instance that was asked,
 * its progress and result in the database for any instance to answer:
 * - check: every photo the records name is there and still hashes to its name; files no one
 *   uses (older than an hour, so an upload in flight is not one) are counted as orphans;
 * - restore: a missing or corrupt photo is put back from the backups, only from bytes that
 *   hash to the record's sha256 (content addressing: nothing else can land under that name);
 * - recreate: thumbnails and print copies are made again from originals that check out.
 * Figures count records for check and restore (what the Admin can look up) and photos for
 * recreate (what was made).
 */
import { createHash, randomUUID } from 'node:crypto';
import { EventEmitter, once } from 'node:events';
import type { FastifyBaseLogger } from 'fastify';
import { FILE_PROBLEM_PAGE_SIZE_MAX, type FileTask, type FileTaskKind, type PhotoProblem } from '../../../common/schemas/file-tools.js';
import type { Db } from '../../db/client.js';
import { AppError } from '../../app-error.js';
import { Semaphore } from '../../semaphore.js';
import type { BlobStore } from '../../storage/blob-store.js';
import { type Actor, auditOf, recordAudit } from '../../audit/index.js';
import { photoStoreOf } from '../backups/index.js';
import { lockPhoto, type PhotoFiles, remakePhotoVariants } from '../inspections/index.js';
import {
  claimFileTask,
  type FileTaskRow,
  findFileTask,
  finishFileTask,
  heartbeat,
  latestFileTasks,
  otherKnownBlobs,
  photosNamedByRecords,
  problemPage,
  recordsUsingPhoto,
  removeOldFileTasks,
  saveProblems,
} from './repository.js';

/** Photos looked at at once: reading and hashing is disk (or network) bound. */
const PARALLEL = 4;
/** Progress and heartbeat are written at most this often. */
const PROGRESS_EVERY_MS = 1000;
/** A file no record uses is an orphan once it is this old: younger ones may be uploads whose row is being written. */
const ORPHAN_AGE_MS = 60 * 60_000;
/** Finished tasks are kept this long. */
const KEEP_TASKS_MS = 30 * 86_400_000;
const WAIT_POLL_MS = 500;
const HEARTBEAT_MS = 10_000;

export interface FileToolsDeps {
  db: Db;
  blobs: BlobStore;
  photoFiles: PhotoFiles;
  backupDir: string;
  log?: FastifyBaseLogger;
  now?: () => Date;
}

type Scan = Map<string, { records: number; problem: PhotoProblem | null }>;

export function createFileToolsService(deps: FileToolsDeps) {
  const { db, blobs } = deps;
  const now = deps.now ?? (() => new Date());
  /** This instance, as the claimant of the tasks it runs. */
  const workerId = `file-tools-${process.pid}-${randomUUID().slice(0, 8)}`;
  const reportProgress = (taskId: string, done: number, total: number) => heartbeat(db, taskId, workerId, { done, total });
  const settled = new EventEmitter();
  const running = new Set<Promise<void>>();
  /** A clean stop ends this instance's tasks as failed rather than holding the shutdown for minutes. */
  const stopping = new AbortController();
  const stillWanted = () => {
    if (stopping.signal.aborted) throw new Error('the server was stopped; start it again');
  };

  async function hashOf(store: BlobStore, hash: string): Promise<string | null> {
    if (!(await store.exists(hash))) return null;
    const hasher = createHash('sha256');
    try {
      for await (const chunk of store.stream(hash)) hasher.update(chunk as Buffer);
    } catch (error) {
      // Removed between the two looks (a deletion): as good as missing.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
    return hasher.digest('hex');
  }

  /** Calls `work` for every photo the records name, a few at a time, reporting progress. */
  async function forEachPhoto(taskId: string, work: (hash: string) => Promise<void>): Promise<Array<{ hash: string; records: number }>> {
    const photos = await photosNamedByRecords(db);
    const slots = new Semaphore(PARALLEL);
    let done = 0;
    let reported = 0;
    await reportProgress(taskId, 0, photos.length);
    await Promise.all(
      photos.map(({ hash }) =>
        slots.run(async () => {
          stillWanted();
          await work(hash);
          done += 1;
          if (Date.now() - reported >= PROGRESS_EVERY_MS) {
            reported = Date.now();
            await reportProgress(taskId, done, photos.length);
          }
        }),
      ),
    );
    await reportProgress(taskId, photos.length, photos.length);
    return photos;
  }

  async function scan(taskId: string): Promise<Scan> {
    const problems = new Map<string, PhotoProblem>();
    const photos = await forEachPhoto(taskId, async (hash) => {
      const actual = await hashOf(blobs, hash);
      if (actual === null) problems.set(hash, 'missing');
      else if (actual !== hash) problems.set(hash, 'corrupt');
    });
    return new Map(photos.map(({ hash, records }) => [hash, { records, problem: problems.get(hash) ?? null }]));
  }

  const recordsWith = (result: Scan, problem: PhotoProblem) => [...result.values()].filter((p) => p.problem === problem).reduce((sum, p) => sum + p.records, 0);

  async function check(taskId: string) {
    const result = await scan(taskId);
    const problems = new Map([...result].filter(([, p]) => p.problem !== null).map(([hash, p]) => [hash, p.problem!]));
    await saveProblems(db, taskId, problems);
    const known = await otherKnownBlobs(db);
    const cutoff = now().getTime() - ORPHAN_AGE_MS;
    let orphans = 0;
    for await (const blob of blobs.list()) {
      if (!result.has(blob.hash) && !known.has(blob.hash) && blob.modifiedAt.getTime() < cutoff) orphans += 1;
    }
    const total = [...result.values()].reduce((sum, p) => sum + p.records, 0);
    return { missing: recordsWith(result, 'missing'), corrupt: recordsWith(result, 'corrupt'), total, orphans };
  }

  /** Puts one photo back from the backups; 'absent' when no backup holds it. */
  async function restoreOne(hash: string): Promise<'restored' | 'failed' | 'absent' | 'unused'> {
    const source = photoStoreOf(deps.backupDir);
    if (!(await source.exists(hash))) return 'absent';
    let strayHash: string | null = null;
    const outcome = await db.transaction(async (tx) => {
      // Under the photo's lock: a deletion of its last record cannot remove it meanwhile, nor
      // can this bring back a photo whose records were deleted a moment ago.
      await lockPhoto(tx, hash);
      if ((await recordsUsingPhoto(tx, hash)) === 0) return 'unused' as const;
      let stored;
      try {
        stored = await blobs.putStream(source.stream(hash), { replace: true });
      } catch (error) {
        deps.log?.warn({ hash, err: error }, 'restoring a photo from the backups failed');
        return 'failed' as const;
      }
      if (stored.hash === hash) return 'restored' as const;
      // The backup's copy went bad too: what was written landed under its own hash, never the record's.
      deps.log?.warn({ hash, got: stored.hash }, "the backup's copy of a photo no longer matches its hash");
      strayHash = stored.hash;
      return 'failed' as const;
    });
    // After the transaction: the embedded database runs one transaction at a time.
    if (strayHash) await deps.photoFiles.removeIfUnused(strayHash).catch(() => undefined);
    return outcome;
  }

  async function restore(taskId: string) {
    const result = await scan(taskId);
    const tally = { restoredCount: 0, failedCount: 0, stillMissingCount: 0 };
    for (const [hash, photo] of result) {
      if (photo.problem === null) continue;
      stillWanted();
      const outcome = await restoreOne(hash);
      if (outcome === 'restored') tally.restoredCount += photo.records;
      else if (outcome === 'failed') {
        tally.failedCount += photo.records;
        tally.stillMissingCount += photo.records;
      } else if (outcome === 'absent') tally.stillMissingCount += photo.records;
    }
    return tally;
  }

  async function recreate(taskId: string) {
    const tally = { recreatedCount: 0, skippedCount: 0 };
    await forEachPhoto(taskId, async (hash) => {
      const outcome = await remakePhotoVariants(blobs, hash);
      if (outcome === 'remade') tally.recreatedCount += 1;
      else tally.skippedCount += 1;
    });
    return tally;
  }

  const WORK: Record<FileTaskKind, (taskId: string) => Promise<object>> = { check, restore, recreate };

  function run(task: FileTaskRow) {
    // The heartbeat says this instance still works on it, whatever phase it is in.
    const beat = setInterval(() => void heartbeat(db, task.id, workerId).catch(() => undefined), HEARTBEAT_MS);
    const job = WORK[task.kind as FileTaskKind](task.id)
      .then((summary) => finishFileTask(db, task.id, { summary }))
      .catch(async (error: unknown) => {
        deps.log?.error({ err: error, taskId: task.id, kind: task.kind }, 'file task failed');
        const reason = error instanceof Error ? error.message : String(error);
        await finishFileTask(db, task.id, { error: `The ${task.kind} stopped: ${reason}` }).catch(() => undefined);
      })
      .finally(() => {
        clearInterval(beat);
        running.delete(job);
        settled.emit('settled', task.id);
      });
    running.add(job);
  }

  /** Starts a task of this kind, or joins the one running (on any instance). */
  async function start(kind: FileTaskKind, actor: Actor): Promise<FileTaskRow> {
    const { task, isNew } = await claimFileTask(db, kind, actor.user.employeeId, now(), workerId);
    if (isNew) {
      if (kind !== 'check') {
        await recordAudit(db, auditOf(actor, { action: kind === 'restore' ? 'files.restore' : 'files.recreate', entity: 'photo-files', entityId: task.id, before: null, after: null }));
      }
      run(task);
    }
    return task;
  }

  async function waitFor(taskId: string, timeoutMs: number): Promise<FileTaskRow> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const row = await findFileTask(db, taskId, now());
      if (!row) throw new AppError('NOT_FOUND', `File task ${taskId} not found`);
      const left = deadline - Date.now();
      if (row.state !== 'running' || left <= 0) return row;
      const stop = new AbortController();
      await Promise.race([
        once(settled, 'settled', { signal: stop.signal }).catch(() => undefined),
        new Promise((resolve) => setTimeout(resolve, Math.min(left, WAIT_POLL_MS)).unref()),
      ]);
      stop.abort();
    }
  }

  async function present(row: FileTaskRow, page = 1, pageSize = 20): Promise<FileTask> {
    const task: FileTask = {
      taskId: row.id,
      kind: row.kind as FileTaskKind,
      state: row.state as FileTask['state'],
      progress: { done: row.progressDone, total: row.progressTotal },
      startedAt: row.startedAt.toISOString(),
      finishedAt: row.finishedAt?.toISOString() ?? null,
      error: row.error,
      summary: (row.summary as FileTask['summary']) ?? null,
    };
    if (row.kind === 'check' && row.state === 'done') {
      task.records = await problemPage(db, row.id, page, Math.min(pageSize, FILE_PROBLEM_PAGE_SIZE_MAX));
    }
    return task;
  }

  async function task(taskId: string, kind?: FileTaskKind): Promise<FileTaskRow> {
    const row = await findFileTask(db, taskId, now());
    if (!row || (kind && row.kind !== kind)) throw new AppError('NOT_FOUND', `File task ${taskId} not found`);
    return row;
  }

  return {
    start,
    waitFor,
    present,
    task,
    latest: () => latestFileTasks(db, now()),
    /** Finished tasks older than a month go (called at start). */
    tidy: () => removeOldFileTasks(db, new Date(now().getTime() - KEEP_TASKS_MS)),
    /** Waits for this instance's tasks (a clean stop); a killed instance's tasks are marked failed by their stale heartbeat. */
    async stop() {
      stopping.abort();
      await Promise.allSettled([...running]);
    },
  };
}

export type FileToolsService = ReturnType<typeof createFileToolsService>;
