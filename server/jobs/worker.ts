/**
 * The job worker of one instance. It claims queued jobs of its registered kinds (queue.ts:
 * SKIP LOCKED, owners taking turns), so several instances share the work and no job is made
 * twice at once; runs each kind's handler; renews a heartbeat with the progress while it works,
 * so a job whose instance dies is claimed again by another (or by this one after a restart);
 * and on a clean stop hands its unfinished jobs back to the queue. At most `concurrency` jobs
 * run here at a time: a big one cannot take every core from uploads and the records view.
 */
import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { hostname } from 'node:os';
import type { Db, DbOrTx } from '../db/client.js';
import { claimNextJob, completeJob, failJob, failWornOutJobs, heartbeatJob, type JobRow, markOrphanedJobsStale, releaseJobs } from './queue.js';

export interface JobControl {
  /** Aborted when this worker lost the job (another claimed it) or the instance stops. */
  signal: AbortSignal;
  /** Share done, 0-1; written to the row with the heartbeat. */
  progress(fraction: number): void;
}

/** What a handler made, recorded only if this worker still holds the job. */
export interface JobDone {
  /** When the finished job is removed by the retention sweep. */
  expiresAt?: Date;
  result?: unknown;
  /** Writes the feature's record of what was made, in the transaction that marks the job done. */
  record?(tx: DbOrTx): Promise<void>;
  /** The job went to another worker meanwhile: undo what was made (its result is the other's). */
  discard?(): Promise<void>;
}

export interface JobHandler {
  /** Settles once everything it started is over, when it fails too (no half-written file left behind). */
  run(job: JobRow, control: JobControl): Promise<JobDone>;
}

export interface JobWorkerDeps {
  db: Db;
  now: () => Date;
  /** Jobs made at once by this instance. */
  concurrency: number;
  /** A running job whose heartbeat is older than this is claimed again. */
  staleSeconds: number;
  /** A job that has been started this many times without finishing kills its worker: it fails. */
  maxAttempts: number;
  /** What the jobs are, in the log: `report` logs `report job failed` with the job's ID as reportId. */
  subject: string;
  /** What a worn-out job's error says. */
  wornOutError: string;
  /** What a failed job's error says (a user reads it); undefined: the failure is logged and a plain text stands. */
  failureText(error: unknown): string | undefined;
  /** Said when the failure is the server's own (logged). */
  serverFailureText: string;
  /** How often an idle worker looks for jobs queued by other instances. */
  pollMs: number;
  /** Embedded database: this process holds the data folder, so running jobs at start are orphans. */
  requeueOnStart: boolean;
  log: { error(obj: object, msg: string): void; warn(obj: object, msg: string): void; info(obj: object, msg: string): void };
  /** Told of each job this worker made to the end, done or failed, with the seconds it took here (the metrics). */
  onSettled?: (job: JobRow, outcome: 'done' | 'failed', seconds: number) => void;
}

export function createJobWorker(deps: JobWorkerDeps) {
  const { db } = deps;
  const workerId = `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;
  const handlers = new Map<string, JobHandler>();
  /** Emits `settled` with a job ID when this instance finishes or fails it. */
  const events = new EventEmitter();
  events.setMaxListeners(0);
  const running = new Map<string, AbortController>();
  let stopped = true;
  let loop: Promise<void> | undefined;
  let wakeUp: (() => void) | undefined;
  const heartbeatMs = Math.max(200, Math.min(1000, (deps.staleSeconds * 1000) / 4));
  const kinds = () => [...handlers.keys()];

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

  async function claim(): Promise<JobRow | undefined> {
    await failWornOutJobs(db, kinds(), deps.staleSeconds, deps.maxAttempts, deps.wornOutError);
    return claimNextJob(db, kinds(), workerId, deps.staleSeconds, deps.maxAttempts, deps.now());
  }

  async function run(): Promise<void> {
    while (!stopped) {
      let job: JobRow | undefined;
      if (running.size < deps.concurrency) {
        try {
          job = await claim();
        } catch (error) {
          if (!stopped) deps.log.warn({ err: error }, `claiming a ${deps.subject} job failed; will retry`);
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

  async function make(job: JobRow): Promise<void> {
    const abort = new AbortController();
    running.set(job.id, abort);
    let progress = 0;
    let lastWritten = -1;
    let beating = Promise.resolve();
    const heartbeat = setInterval(() => {
      beating = beating.then(async () => {
        if (abort.signal.aborted) return;
        const held = await heartbeatJob(db, job.id, workerId, { percent: progress }).catch(() => true);
        lastWritten = progress;
        if (!held) abort.abort(new Error('another worker took the job over'));
      });
    }, heartbeatMs);
    heartbeat.unref();
    const handler = handlers.get(job.kind);
    const started = performance.now();
    const settled = (outcome: 'done' | 'failed') => deps.onSettled?.(job, outcome, (performance.now() - started) / 1000);
    try {
      if (!handler) throw new Error(`no handler for job kind ${job.kind}`);
      const done = await handler.run(job, {
        signal: abort.signal,
        progress(fraction) {
          progress = Math.max(lastWritten, Math.min(99, Math.floor(fraction * 100)));
        },
      });
      clearInterval(heartbeat);
      await beating;
      const held = await db.transaction(async (tx) => {
        const row = await completeJob(tx, job.id, workerId, { finishedAt: deps.now(), result: done.result ?? null, ...(done.expiresAt ? { expiresAt: done.expiresAt } : {}) });
        if (row) await done.record?.(tx);
        return row !== undefined;
      });
      if (!held) await done.discard?.();
      else settled('done');
    } catch (error) {
      clearInterval(heartbeat);
      await beating;
      // Released at shutdown (another instance finishes it), or another worker holds it now.
      if (abort.signal.aborted) return;
      const text = deps.failureText(error);
      if (text === undefined) deps.log.error({ err: error, [`${deps.subject}Id`]: job.id, kind: job.kind }, `${deps.subject} job failed`);
      await failJob(db, job.id, workerId, text ?? deps.serverFailureText, deps.now()).catch((failure: unknown) => deps.log.error({ err: failure }, `recording a failed ${deps.subject} failed`));
      settled('failed');
    } finally {
      running.delete(job.id);
    }
  }

  return {
    workerId,
    events,
    /** The handler of one job kind; any instance's worker with it registered may make the kind's jobs. */
    register(kind: string, handler: JobHandler): void {
      handlers.set(kind, handler);
    },
    /** A job was queued here: claim it now rather than at the next poll. */
    wake,
    async start(): Promise<void> {
      if (!stopped) return;
      if (deps.requeueOnStart) await markOrphanedJobsStale(db, kinds());
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
      await releaseJobs(db, workerId).catch((error: unknown) => deps.log.warn({ err: error }, `releasing ${deps.subject} jobs failed; they will be claimed again when stale`));
    },
  };
}

