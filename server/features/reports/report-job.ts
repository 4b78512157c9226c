/**
 * How a report is made as a job of the engine (server/jobs): each report kind registers a
 * renderer; the handler gives it what the report's row holds (so any instance can make it),
 * streams its bytes straight into the BlobStore, and records the file with the job.
 */
import type { Readable } from 'node:stream';
import type { ReportKind } from '../../../common/schemas/reports.js';
import type { Db } from '../../db/client.js';
import type { JobControl, JobHandler } from '../../jobs/index.js';
import type { BlobStore, StoredBlob } from '../../storage/blob-store.js';
import { findUserById } from '../../accounts/index.js';
import { blobStillUsed, findReport, recordReportFile, type ReportRow } from './repository.js';

const DAY_MS = 24 * 60 * 60 * 1000;

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

/** Aborted when the worker lost the job or the instance stops; progress is a share done, 0-1. */
export type RenderControl = JobControl;

export type ReportRenderer = (job: ReportJob, control: RenderControl) => Promise<ReportOutput>;

export interface ReportHandlerDeps {
  db: Db;
  blobs: BlobStore;
  now: () => Date;
  /** Made reports are kept this long from when they could first be downloaded (REPORT_RETENTION_DAYS). */
  retentionDays: number;
}

async function reportJobOf(db: Db, row: ReportRow): Promise<ReportJob> {
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

/** The job handler of one report kind, around its renderer. */
export function reportHandler(deps: ReportHandlerDeps, render: ReportRenderer): JobHandler {
  return {
    async run(job, control) {
      const row = await findReport(deps.db, job.id);
      if (!row) throw new Error(`report ${job.id} has no record`);
      const output = await render(await reportJobOf(deps.db, row), control);
      // A failing renderer destroys its stream with the error; it reaches us through putStream
      // and `finished`, so the stream's own 'error' event must not go unheard (that would end the process).
      output.stream.on('error', () => undefined);
      control.signal.addEventListener('abort', () => output.stream.destroy(new Error('report job aborted')), { once: true });
      const storing: Promise<StoredBlob> = deps.blobs.putStream(output.stream);
      let stored: StoredBlob;
      let figures: Awaited<ReportOutput['finished']>;
      try {
        [stored, figures] = await Promise.all([storing, output.finished]);
      } catch (error) {
        // Let the blob store remove its partial file before the job counts as settled.
        await storing.catch(() => undefined);
        throw error;
      }
      return {
        // Kept for REPORT_RETENTION_DAYS from when it could first be downloaded.
        expiresAt: new Date(deps.now().getTime() + deps.retentionDays * DAY_MS),
        record: (tx) =>
          recordReportFile(tx, job.id, {
            recordCount: figures.recordCount,
            summary: figures.summary,
            fileHash: stored.hash,
            fileName: output.fileName,
            fileSizeBytes: stored.sizeBytes,
            contentType: output.contentType,
          }),
        // Lost to another worker meanwhile: its row will point at its own file; drop ours unless shared.
        async discard() {
          if (!(await blobStillUsed(deps.db, stored.hash))) await deps.blobs.delete(stored.hash);
        },
      };
    },
  };
}
