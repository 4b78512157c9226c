/**
 * Reports as the railway files them: each made once, kept in the BlobStore under its sha256
 * with a row saying what was asked, by whom, for which division and what it found (DESIGN
 * section 13). The same report asked again before the data changed is answered with the file
 * already made. A report belongs to who may see its division: Admins any, a Client only their
 * own division's, whatever ID they send.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { PublicUser } from '../../../common/schemas/auth.js';
import type { ReportKind, ReportListQuery, ReportSummary } from '../../../common/schemas/reports.js';
import { AppError } from '../../app-error.js';
import type { Db } from '../../db/client.js';
import type { BlobStore } from '../../storage/blob-store.js';
import type { Actor } from '../audit/audit.js';
import { blobStillUsed, deleteExpiredReports, findReport, findReusableReport, insertReport, listReportsOf, type ReportRow } from './repository.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const SWEEP_INTERVAL_MS = 60 * 60 * 1000;
const SWEEP_BATCH = 200;

export interface ReportSpec {
  kind: ReportKind;
  params: Record<string, unknown>;
  /** The division the report covers; null for every division (not for Clients). */
  division: string | null;
  /** Everything else the file depends on (business date, data versions, settings). */
  dependsOn: unknown;
}

/** A report being written: its bytes as a stream, and its figures once complete. */
export interface ReportOutput {
  fileName: string;
  contentType: string;
  stream: Readable;
  /** Settles when every byte has been handed to `stream`, with the report's figures. */
  finished: Promise<{ recordCount: number; summary: Record<string, unknown> }>;
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
  log: { error(obj: object, msg: string): void; warn(obj: object, msg: string): void };
}

export function createReportService(deps: ReportDeps) {
  const { db, blobs } = deps;
  /** Reports being made in this instance: the same one asked twice at once is made once. */
  const making = new Map<string, Promise<ReportRow>>();
  let sweepTimer: NodeJS.Timeout | undefined;

  async function make(actor: Actor, spec: ReportSpec, dedupeKey: string, render: () => Promise<ReportOutput>): Promise<ReportRow> {
    const output = await render();
    const [stored, figures] = await Promise.all([blobs.putStream(output.stream), output.finished]);
    const now = deps.now();
    try {
      return await insertReport(db, {
        id: randomUUID(),
        kind: spec.kind,
        params: spec.params,
        division: spec.division,
        dedupeKey,
        requestedByUserId: actor.user.id,
        requestedByEmployeeId: actor.user.employeeId,
        status: 'done',
        progress: 100,
        recordCount: figures.recordCount,
        summary: figures.summary,
        fileHash: stored.hash,
        fileName: output.fileName,
        fileSizeBytes: stored.sizeBytes,
        contentType: output.contentType,
        createdAt: now,
        finishedAt: now,
        expiresAt: new Date(now.getTime() + deps.retentionDays * DAY_MS),
      });
    } catch (error) {
      // No file without its row: remove it unless an earlier report has the same bytes.
      if (!(await blobStillUsed(db, stored.hash).catch(() => true))) await blobs.delete(stored.hash).catch(() => undefined);
      throw error;
    }
  }

  /**
   * The report for `spec`: one already made from the same parameters and data if it is still
   * kept, else a new one rendered now.
   */
  async function produce(actor: Actor, spec: ReportSpec, render: () => Promise<ReportOutput>): Promise<ReportRow> {
    const dedupeKey = createHash('sha256').update(JSON.stringify([spec.kind, spec.params, spec.division, spec.dependsOn])).digest('hex');
    const running = making.get(dedupeKey);
    if (running) return running;
    const reusable = await findReusableReport(db, dedupeKey, deps.now());
    if (reusable?.fileHash && (await blobs.exists(reusable.fileHash))) return reusable;
    const made = make(actor, spec, dedupeKey, render).finally(() => making.delete(dedupeKey));
    making.set(dedupeKey, made);
    return made;
  }

  function maySee(user: PublicUser, report: ReportRow): boolean {
    if (user.role === 'Admin') return true;
    if (user.role === 'Client') return user.divisionAccess !== null && user.divisionAccess !== undefined && report.division === user.divisionAccess;
    return false;
  }

  /** The finished file of a report this user may see; 404 otherwise, with no hint that it exists. */
  async function fileOf(user: PublicUser, reportId: string): Promise<ReportFile> {
    const report = await findReport(db, reportId);
    const notFound = new AppError('NOT_FOUND', `Report ${reportId} not found: it may have expired, generate it again`);
    if (!report || !maySee(user, report) || report.expiresAt <= deps.now()) throw notFound;
    if (report.status !== 'done' || !report.fileHash || !report.fileName || !report.contentType) throw notFound;
    const size = await blobs.size(report.fileHash);
    if (size === null) throw notFound;
    return { fileName: report.fileName, contentType: report.contentType, hash: report.fileHash, sizeBytes: size };
  }

  /** The user's own reports still kept, newest first: to download again without making them again. */
  async function recent(user: PublicUser, query: ReportListQuery): Promise<ReportSummary[]> {
    const rows = await listReportsOf(db, user.id, { kind: query.kind, limit: query.limit, now: deps.now() });
    return rows.map((row) => ({
      reportId: row.id,
      kind: row.kind as ReportKind,
      params: (row.params ?? {}) as Record<string, unknown>,
      division: row.division,
      status: row.status as ReportSummary['status'],
      recordCount: row.recordCount,
      summary: (row.summary ?? null) as Record<string, unknown> | null,
      fileName: row.fileName,
      fileSizeBytes: row.fileSizeBytes,
      createdAt: row.createdAt.toISOString(),
      expiresAt: row.expiresAt.toISOString(),
    }));
  }

  /** Drops expired reports and their files (a file another report still uses stays). */
  async function sweep(): Promise<void> {
    for (;;) {
      const hashes = await deleteExpiredReports(db, deps.now(), SWEEP_BATCH);
      for (const hash of hashes) {
        if (!(await blobStillUsed(db, hash))) await blobs.delete(hash);
      }
      if (hashes.length < SWEEP_BATCH) return;
    }
  }

  return {
    produce,
    fileOf,
    recent,
    start() {
      const run = () =>
        sweep().catch((error: unknown) => {
          deps.log.warn({ err: error }, 'removing expired reports failed; will retry');
        });
      void run();
      sweepTimer = setInterval(run, SWEEP_INTERVAL_MS);
      sweepTimer.unref();
    },
    stop() {
      if (sweepTimer) clearInterval(sweepTimer);
    },
    sweep,
  };
}

export type ReportService = ReturnType<typeof createReportService>;
