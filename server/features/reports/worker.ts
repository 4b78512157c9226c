/**
 * The report worker of one instance (docs/architecture.md, 'How a job flows'). It claims queued jobs from the
 * reports table with FOR UPDATE SKIP LOCKED, so several instances share the work and no job is
 * made twice at once; renders each straight into the BlobStore; renews a heartbeat while it
 * works, so a job whose instance dies is claimed again by another (or by this one after a
 * restart). At most `concurrency` jobs run here at a time: a big report cannot take every
 * core from uploads and the records view.
 */
import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { hostname } from 'node:os';
import type { ReportKind } from '../../../common/schemas/reports.js';
import { AppError } from '../../app-error.js';
import type { Db } from '../../db/client.js';
import type { BlobStore, StoredBlob } from '../../storage/blob-store.js';
import { findUserById } from '../users/repository.js';
import {
  blobStillUsed,
  claimNextJob,
  completeJob,
  failJob,
  failWornOutJobs,
  heartbeatJob,
  releaseJobs,
  type ReportRow,
  markOrphanedJobsStale,
} from './repository.js';
import type { Readable } from 'node:stream';

const DAY_MS = 24 * 60 * 60 * 1000;
/** A job that has been started this many times without finishing kills its worker: it fails. */
const MAX_ATTEMPTS = 3;

/** A report being written: its bytes as a stream, and its figures once complete. */
export interface ReportOutput {
  fileName: string;
  contentType: string;
  stream: Readable;
  /** Settles when every byte has been handed to `stream`, with the report's figures. */
  finished: Promise<{ recordCount: number; summary: Record<string, unknown> }>;
}

/** What a renderer knows of its job: only what the row holds, so any instance can make it. */
export interface ReportJob {
  id: string;
  kind: ReportKind;
  params: Record<string, unknown>;
  snapshot: Record<string, unknown>;
  division: string | null;
  requester: { userId: number | null; employeeId: string; name: string };
  createdAt: Date;
}

export interface RenderControl {
  /** Aborted when this worker lost the job (another claimed it) or the instance stops. */
  signal: AbortSignal;
  /** Share done, 0-1; written to the row with the heartbeat. */
  progress(fraction: number): void;
}

export type ReportRenderer = (job: ReportJob, control: RenderControl) => Promise<ReportOutput>;

export interface ReportWorkerDeps {
  db: Db;
  blobs: BlobStore;
  now: () => Date;
  retentionDays: number;
  /** Jobs made at once by this instance (REPORT_WORKERS). */
  concurrency: number;
  /** A running job whose heartbeat is older than this is claimed again (REPORT_JOB_STALE_SECONDS). */
  staleSeconds: number;
  /** How often an idle worker looks for jobs queued by other instances. */
  pollMs: number;
  /** Embedded database: this process holds the data folder, so running jobs at start are orphans. */
  requeueOnStart: boolean;
  log: { error(obj: object, msg: string): void; warn(obj: object, msg: string): void; info(obj: object, msg: string): void };
}

export function createReportWorker(deps: ReportWorkerDeps) {
  const { db } = deps;
  const workerId = `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;
  const renderers = new Map<ReportKind, ReportRenderer>();
  /** Emits `settled` with a report ID when this instance finishes or fails it. */
  const events = new EventEmitter();
  events.setMaxListeners(0);
  const running = new Map<string, AbortController>();
  let stopped = true;
  let loop: Promise<void> | undefined;
  let wakeUp: (() => void) | undefined;
  const heartbeatMs = Math.max(200, Math.min(1000, (deps.staleSeconds * 1000) / 4));

  /** Set by a wake-up that came while the loop was busy claiming: the next idle is skipped. */
  let wakePending = false;

  function wake(): void {
    if (wakeUp) wakeUp();
    else wakePending = true;
  }

  function idle(): Promise<void> {
    if (wakePending) {
      wakePending = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const timer = setTimeout(done, deps.pollMs);
      function done() {
        clearTimeout(timer);
        wakeUp = undefined;
        resolve();
      }
      wakeUp = done;
    });
  }

  async function claim(): Promise<ReportRow | undefined> {
    await failWornOutJobs(db, deps.staleSeconds, MAX_ATTEMPTS, `The report was started ${MAX_ATTEMPTS} times and never finished`);
    return claimNextJob(db, workerId, deps.staleSeconds, MAX_ATTEMPTS, deps.now());
  }

  async function run(): Promise<void> {
    while (!stopped) {
      let job: ReportRow | undefined;
      if (running.size < deps.concurrency) {
        try {
          job = await claim();
        } catch (error) {
          if (!stopped) deps.log.warn({ err: error }, 'claiming a report job failed; will retry');
        }
      }
      if (job) {
        const claimed = job;
        void make(claimed).finally(() => {
          events.emit('settled', claimed.id);
          wake();
        });
        continue;
      }
      await idle();
    }
  }

  async function jobOf(row: ReportRow): Promise<ReportJob> {
    const user = row.requestedByUserId === null ? undefined : await findUserById(db, row.requestedByUserId);
    return {
      id: row.id,
      kind: row.kind as ReportKind,
      params: (row.params ?? {}) as Record<string, unknown>,
      snapshot: (row.snapshot ?? {}) as Record<string, unknown>,
      division: row.division,
      requester: { userId: row.requestedByUserId, employeeId: row.requestedByEmployeeId, name: user?.name ?? row.requestedByEmployeeId },
      createdAt: row.createdAt,
    };
  }

  async function make(row: ReportRow): Promise<void> {
    const abort = new AbortController();
    running.set(row.id, abort);
    let progress = 0;
    let lastWritten = -1;
    let beating = Promise.resolve();
    let storing: Promise<StoredBlob> | undefined;
    const heartbeat = setInterval(() => {
      beating = beating.then(async () => {
        if (abort.signal.aborted) return;
        const held = await heartbeatJob(db, row.id, workerId, progress).catch(() => true);
        lastWritten = progress;
        if (!held) abort.abort(new Error('another worker took the report over'));
      });
    }, heartbeatMs);
    heartbeat.unref();
    try {
      const renderer = renderers.get(row.kind as ReportKind);
      if (!renderer) throw new Error(`no renderer for report kind ${row.kind}`);
      const output = await renderer(await jobOf(row), {
        signal: abort.signal,
        progress(fraction) {
          progress = Math.max(lastWritten, Math.min(99, Math.floor(fraction * 100)));
        },
      });
      // A failing renderer destroys its stream with the error; it reaches us through putStream
      // and `finished`, so the stream's own 'error' event must not go unheard (that would end the process).
      output.stream.on('error', () => undefined);
      abort.signal.addEventListener('abort', () => output.stream.destroy(new Error('report job aborted')), { once: true });
      storing = deps.blobs.putStream(output.stream);
      const [stored, figures] = await Promise.all([storing, output.finished]);
      clearInterval(heartbeat);
      await beating;
      const now = deps.now();
      const done = await completeJob(db, row.id, workerId, {
        recordCount: figures.recordCount,
        summary: figures.summary,
        fileHash: stored.hash,
        fileName: output.fileName,
        fileSizeBytes: stored.sizeBytes,
        contentType: output.contentType,
        finishedAt: now,
        // Kept for REPORT_RETENTION_DAYS from when it could first be downloaded.
        expiresAt: new Date(now.getTime() + deps.retentionDays * DAY_MS),
      });
      // Lost to another worker meanwhile: its row will point at its own file; drop ours unless shared.
      if (!done && !(await blobStillUsed(db, stored.hash))) await deps.blobs.delete(stored.hash);
    } catch (error) {
      clearInterval(heartbeat);
      await beating;
      // Let the blob store remove its partial file before the job counts as settled.
      await storing?.catch(() => undefined);
      if (stopped && abort.signal.aborted) return; // released at shutdown, another instance finishes it
      if (abort.signal.aborted) return; // another worker holds it now
      const message = error instanceof AppError ? error.message : 'The report could not be made: an error on the server (it is logged)';
      if (!(error instanceof AppError)) deps.log.error({ err: error, reportId: row.id, kind: row.kind }, 'report job failed');
      await failJob(db, row.id, workerId, message, deps.now()).catch((failure: unknown) => deps.log.error({ err: failure }, 'recording a failed report failed'));
    } finally {
      running.delete(row.id);
    }
  }

  return {
    workerId,
    events,
    register(kind: ReportKind, renderer: ReportRenderer): void {
      renderers.set(kind, renderer);
    },
    /** A job was queued here: claim it now rather than at the next poll. */
    wake,
    async start(): Promise<void> {
      if (!stopped) return;
      if (deps.requeueOnStart) await markOrphanedJobsStale(db);
      stopped = false;
      loop = run();
    },
    async stop(): Promise<void> {
      stopped = true;
      wake();
      for (const abort of running.values()) abort.abort(new Error('the instance is stopping'));
      await loop;
      // Let aborted jobs unwind before handing them back, so none is released and then failed.
      while (running.size > 0) await new Promise((resolve) => events.once('settled', resolve));
      await releaseJobs(db, workerId).catch((error: unknown) => deps.log.warn({ err: error }, 'releasing report jobs failed; they will be claimed again when stale'));
    },
  };
}

export type ReportWorker = ReturnType<typeof createReportWorker>;
