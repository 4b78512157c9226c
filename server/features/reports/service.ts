/**
 * Reports as the railway files them: each made once, kept in the BlobStore under its sha256
 * with a row saying what was asked, by whom, for which division and what it found (docs/architecture.md,
 * 'Reports'). The same report asked again before the data changed is answered with the file
 * already made. A report belongs to who may see its division: Admins any, a Client only their
 * own division's, whatever ID they send.
 */
import { createHash, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import type { PublicUser } from '../../../common/schemas/auth.js';
import type { ReportKind, ReportListQuery, ReportStatus, ReportSummary } from '../../../common/schemas/reports.js';
import { ERRORS } from '../../../common/errors.js';
import { AppError } from '../../app-error.js';
import type { Db } from '../../db/client.js';
import type { BlobStore } from '../../storage/blob-store.js';
import type { Actor } from '../../audit/index.js';
import { countUnfinishedOf, createJobWorker, lockOwner } from '../../jobs/index.js';
import { reportHandler, type ReportRenderer } from './report-job.js';
import {
  blobStillUsed,
  deleteExpiredReports,
  findReport,
  findReusableReport,
  insertReportUnlessQueued,
  listReportsOf,
  REPORT_JOB_KINDS,
  reportJobKind,
  type ReportRow,
} from './repository.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const SWEEP_INTERVAL_MS = 60 * 60 * 1000;
const SWEEP_BATCH = 200;
/** A streamed write untouched this long belongs to no living report job. */
const ABANDONED_WRITE_MS = 60 * 60 * 1000;

export interface ReportSpec {
  kind: ReportKind;
  /** What was asked, as the user would name it (shown in their recent reports). */
  params: Record<string, unknown>;
  /** What is fixed at the moment of asking (records up to now, the business date): stored for the job. */
  snapshot: Record<string, unknown>;
  /** The division the report covers; null for every division (not for Clients). */
  division: string | null;
  /** Everything else the file depends on (data versions, settings). */
  dependsOn: unknown;
}

export interface ReportFile {
  fileName: string;
  contentType: string;
  hash: string;
  sizeBytes: number;
}

export interface ReportDeps {
  db: Db;
  blobs: BlobStore;
  now: () => Date;
  /** How long a made report can be downloaded (and reused): REPORT_RETENTION_DAYS. */
  retentionDays: number;
  /** Reports made at once by this instance (REPORT_WORKERS). */
  workers: number;
  /** Seconds without a heartbeat after which a running report is claimed again (REPORT_JOB_STALE_SECONDS). */
  staleSeconds: number;
  /** Unfinished reports an Admin may have at once (REPORT_JOBS_PER_ADMIN). */
  jobsPerAdmin: number;
  /** Unfinished reports a Client may have at once (REPORT_JOBS_PER_CLIENT). */
  jobsPerClient: number;
  /** How often an idle worker looks for reports queued by other instances. */
  pollMs?: number;
  databaseKind: 'pglite' | 'postgres';
  log: { error(obj: object, msg: string): void; warn(obj: object, msg: string): void; info(obj: object, msg: string): void };
  /** Told of each report this instance made to the end: its job kind, done or failed, and the seconds it took (the metrics). */
  onReportSettled?: (kind: string, outcome: 'done' | 'failed', seconds: number) => void;
}

const WAIT_POLL_MS = 500;
/** A report that has been started this many times without finishing kills its worker: it fails. */
const MAX_ATTEMPTS = 3;

export function createReportService(deps: ReportDeps) {
  const { db, blobs } = deps;
  const worker = createJobWorker({
    db,
    now: deps.now,
    concurrency: deps.workers,
    staleSeconds: deps.staleSeconds,
    subject: 'report',
    maxAttempts: MAX_ATTEMPTS,
    wornOutError: `The report was started ${MAX_ATTEMPTS} times and never finished`,
    failureText: (error) => (error instanceof AppError ? error.message : undefined),
    serverFailureText: 'The report could not be made: an error on the server (it is logged)',
    pollMs: deps.pollMs ?? 1000,
    requeueOnStart: deps.databaseKind === 'pglite',
    log: deps.log,
    ...(deps.onReportSettled ? { onSettled: (job: { kind: string }, outcome: 'done' | 'failed', seconds: number) => deps.onReportSettled?.(job.kind, outcome, seconds) } : {}),
  });
  let sweepTimer: NodeJS.Timeout | undefined;

  /** How many unfinished reports this user may have: a Client fewer than an Admin. */
  const jobCapOf = (user: PublicUser) => (user.role === 'Admin' ? deps.jobsPerAdmin : deps.jobsPerClient);

  /**
   * Asks for the report of `spec`: one already made or being made from the same parameters on
   * the same data if it is still kept (the same request twice, from any instance, is made
   * once), else a new job, queued for whichever worker is free first. A new job is refused
   * (429) while the user already has their cap of unfinished ones: a report already asked for
   * is never refused, but nobody can fill the queue by varying a date.
   */
  async function request(actor: Actor, spec: ReportSpec, recordCount: number | null = null): Promise<ReportRow> {
    const dedupeKey = createHash('sha256').update(JSON.stringify([spec.kind, spec.params, spec.division, spec.dependsOn])).digest('hex');
    // Three tries: an identical request queued at the same moment (a double tap, another
    // instance) wins the insert, and is then found as reusable, unless it has already failed.
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const now = deps.now();
      const reusable = await findReusableReport(db, dedupeKey, now);
      if (reusable && (reusable.status !== 'done' || (reusable.fileHash && (await blobs.exists(reusable.fileHash))))) return reusable;
      const row = await db.transaction(async (tx) => {
        // Count and insert under the user's lock, so two requests at cap - 1 cannot both pass.
        await lockOwner(tx, actor.user.id);
        // The same request of theirs queued while this one waited for the lock (a double tap)
        // is its answer, not a reason to refuse it: the loop's next turn returns it.
        const meanwhile = await findReusableReport(tx, dedupeKey, now);
        if (meanwhile && meanwhile.id !== reusable?.id) return undefined;
        const unfinished = await countUnfinishedOf(tx, actor.user.id, REPORT_JOB_KINDS, now);
        if (unfinished >= jobCapOf(actor.user)) throw new AppError('TOO_MANY_REPORT_JOBS', tooManyJobsText(unfinished));
        return insertReportUnlessQueued(tx, {
          id: randomUUID(),
          kind: spec.kind,
          params: spec.params,
          snapshot: spec.snapshot,
          division: spec.division,
          dedupeKey,
          requestedByUserId: actor.user.id,
          requestedByEmployeeId: actor.user.employeeId,
          status: 'queued',
          progress: 0,
          recordCount,
          createdAt: now,
          // Until it is made; then REPORT_RETENTION_DAYS from when it was finished.
          expiresAt: new Date(now.getTime() + deps.retentionDays * DAY_MS),
        });
      });
      if (row) {
        worker.wake();
        return row;
      }
    }
    throw new Error('the same report was queued and failed three times while this request asked for it');
  }

  /**
   * The report's row once it is done or failed, or as it stands after `timeoutMs`. Jobs of this
   * instance say so at once; those of other instances are seen by reading the row again.
   */
  async function waitFor(reportId: string, timeoutMs: number): Promise<ReportRow> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const row = await findReport(db, reportId);
      if (!row) throw new AppError('NOT_FOUND', `Report ${reportId} not found`);
      const left = deadline - Date.now();
      if (row.status === 'done' || row.status === 'failed' || left <= 0) return row;
      const settled = new AbortController();
      await Promise.race([
        once(worker.events, 'settled', { signal: settled.signal }).then(
          () => undefined,
          () => undefined,
        ),
        new Promise((resolve) => setTimeout(resolve, Math.min(left, WAIT_POLL_MS)).unref()),
      ]);
      settled.abort();
    }
  }

  function maySee(user: PublicUser, report: ReportRow): boolean {
    if (user.role === 'Admin') return true;
    if (user.role === 'Client') return user.divisionAccess !== null && user.divisionAccess !== undefined && report.division === user.divisionAccess;
    return false;
  }

  /** A report this user may see (and is not expired); 404 otherwise, with no hint that it exists. */
  async function visibleReport(user: PublicUser, reportId: string): Promise<ReportRow> {
    const report = await findReport(db, reportId);
    if (!report || !maySee(user, report) || report.expiresAt <= deps.now()) {
      throw new AppError('NOT_FOUND', `Report ${reportId} not found: it may have expired, generate it again`);
    }
    return report;
  }

  /** The finished file of a report this user may see; 409 while it is made, 404 when unknown. */
  async function fileOf(user: PublicUser, reportId: string): Promise<ReportFile> {
    const report = await visibleReport(user, reportId);
    if (report.status === 'failed') throw new AppError('REPORT_FAILED', report.error ?? ERRORS.REPORT_FAILED.message);
    if (report.status !== 'done') throw new AppError('REPORT_NOT_READY', `The report is still being made (${report.progress}%): download it when it is done`);
    const size = report.fileHash ? await blobs.size(report.fileHash) : null;
    if (size === null || !report.fileName || !report.contentType || !report.fileHash) {
      throw new AppError('NOT_FOUND', `Report ${reportId} not found: its file is gone, generate it again`);
    }
    return { fileName: report.fileName, contentType: report.contentType, hash: report.fileHash, sizeBytes: size };
  }

  /** Where a report stands, for a view's progress bar. */
  async function status(user: PublicUser, reportId: string): Promise<ReportSummary> {
    return summaryOf(await visibleReport(user, reportId));
  }

  /** The user's own reports still kept, newest first: to download again without making them again. */
  async function recent(user: PublicUser, query: ReportListQuery): Promise<ReportSummary[]> {
    const rows = await listReportsOf(db, user.id, { kind: query.kind, limit: query.limit, now: deps.now() });
    return rows.map(summaryOf);
  }

  /**
   * Drops expired reports and their files (a file another report still uses stays), and the
   * partial files of reports whose instance was killed while writing them.
   */
  async function sweep(): Promise<void> {
    await blobs.removeAbandonedWrites(new Date(Date.now() - ABANDONED_WRITE_MS));
    for (;;) {
      const hashes = await deleteExpiredReports(db, deps.now(), SWEEP_BATCH);
      for (const hash of hashes) {
        if (!(await blobStillUsed(db, hash))) await blobs.delete(hash);
      }
      if (hashes.length < SWEEP_BATCH) return;
    }
  }

  return {
    request,
    waitFor,
    fileOf,
    status,
    recent,
    sweep,
    /** Each report kind says how its file is made; any instance's worker may make it. */
    register(kind: ReportKind, renderer: ReportRenderer): void {
      worker.register(reportJobKind(kind), reportHandler({ db, blobs, now: deps.now, retentionDays: deps.retentionDays }, renderer));
    },
    workerId: worker.workerId,
    async start(): Promise<void> {
      const run = () =>
        sweep().catch((error: unknown) => {
          deps.log.warn({ err: error }, 'removing expired reports failed; will retry');
        });
      void run();
      sweepTimer = setInterval(run, SWEEP_INTERVAL_MS);
      sweepTimer.unref();
      await worker.start();
    },
    async stop(): Promise<void> {
      if (sweepTimer) clearInterval(sweepTimer);
      await worker.stop();
    },
  };
}

/** What a user past their cap reads: how many of their reports are being made, and what to do. */
export const tooManyJobsText = (unfinished: number) =>
  unfinished === 1
    ? 'You have 1 report still being made. Please wait for it to finish, then ask again'
    : `You have ${unfinished} reports still being made. Please wait for one of them to finish, then ask again`;

export function summaryOf(row: ReportRow): ReportSummary {
  return {
    reportId: row.id,
    kind: row.kind as ReportKind,
    params: (row.params ?? {}) as Record<string, unknown>,
    division: row.division,
    status: row.status as ReportStatus,
    progress: row.progress,
    recordCount: row.recordCount,
    summary: (row.summary ?? null) as Record<string, unknown> | null,
    error: row.error,
    fileName: row.fileName,
    fileSizeBytes: row.fileSizeBytes,
    downloadUrl: downloadUrlOf(row.id),
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
  };
}

export const downloadUrlOf = (reportId: string) => `/api/reports/download/${reportId}`;

export type ReportService = ReturnType<typeof createReportService>;
