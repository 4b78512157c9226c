/**
 * Reports' records, each under the ID of its job (server/jobs): a report row is the domain
 * record (what was asked, the file made) joined with its job's place in the queue.
 */
import { and, desc, eq, getTableColumns, gt, inArray } from 'drizzle-orm';
import { REPORT_KINDS, type ReportKind } from '../../../common/schemas/reports.js';
import type { DbOrTx } from '../../db/client.js';
import { inspectionLogs, jobs, reports } from '../../db/schema.js';
import { deleteJobs, enqueueJob, expiredJobIds, insertJob, type NewJobRow } from '../../jobs/index.js';

/** A report's job kind: each report kind is a kind of job with its own handler. */
export const reportJobKind = (kind: ReportKind | string) => `report.${kind}`;
export const REPORT_JOB_KINDS: readonly string[] = REPORT_KINDS.map(reportJobKind);

const reportColumns = {
  ...getTableColumns(reports),
  requestedByUserId: jobs.ownerUserId,
  status: jobs.status,
  progress: jobs.progress,
  error: jobs.error,
  claimedBy: jobs.claimedBy,
  heartbeatAt: jobs.heartbeatAt,
  attempts: jobs.attempts,
  createdAt: jobs.createdAt,
  startedAt: jobs.startedAt,
  finishedAt: jobs.finishedAt,
  expiresAt: jobs.expiresAt,
};

type JoinedRow = { [K in keyof typeof reportColumns]: (typeof reportColumns)[K]['_']['data'] | ((typeof reportColumns)[K]['_']['notNull'] extends true ? never : null) };
/** A report as its record and its job say together; a report's job always has an expiry. */
export type ReportRow = Omit<JoinedRow, 'expiresAt'> & { expiresAt: Date };
export type NewReportRow = typeof reports.$inferInsert &
  Pick<NewJobRow, 'status' | 'progress' | 'error' | 'claimedBy' | 'heartbeatAt' | 'attempts' | 'createdAt' | 'startedAt' | 'finishedAt'> & { requestedByUserId?: number | null; expiresAt: Date };

const asReport = (row: JoinedRow): ReportRow => ({ ...row, expiresAt: row.expiresAt ?? new Date(0) });
const selectReports = (db: DbOrTx) => db.select(reportColumns).from(reports).innerJoin(jobs, eq(jobs.id, reports.id));

function split(row: NewReportRow): { job: NewJobRow; report: typeof reports.$inferInsert } {
  const { requestedByUserId, status, progress, error, claimedBy, heartbeatAt, attempts, createdAt, startedAt, finishedAt, expiresAt, ...report } = row;
  const job: NewJobRow = { id: row.id, kind: reportJobKind(row.kind), ownerUserId: requestedByUserId ?? null, uniqueKey: row.dedupeKey, status, progress, error, claimedBy, heartbeatAt, attempts, createdAt, startedAt, finishedAt, expiresAt };
  return { job, report };
}

export async function insertReport(db: DbOrTx, row: NewReportRow): Promise<ReportRow> {
  const { job, report } = split(row);
  await insertJob(db, job);
  await db.insert(reports).values(report);
  const stored = await findReport(db, row.id);
  if (!stored) throw new Error('report insert returned nothing');
  return stored;
}

/**
 * Queues a report; undefined when an unfinished one with the same dedupe key exists already
 * (the job's unique key: the same request made at the same moment elsewhere).
 */
export async function insertReportUnlessQueued(db: DbOrTx, row: NewReportRow): Promise<ReportRow | undefined> {
  const { job, report } = split(row);
  if (!(await enqueueJob(db, job))) return undefined;
  await db.insert(reports).values(report);
  return findReport(db, row.id);
}

export async function findReport(db: DbOrTx, id: string): Promise<ReportRow | undefined> {
  const [row] = await selectReports(db).where(eq(reports.id, id)).limit(1);
  return row && asReport(row);
}

/** The newest unexpired report asked with the same parameters on the same data: made, or being made. */
export async function findReusableReport(db: DbOrTx, dedupeKey: string, now: Date): Promise<ReportRow | undefined> {
  const [row] = await selectReports(db)
    .where(and(eq(reports.dedupeKey, dedupeKey), inArray(jobs.status, ['queued', 'running', 'done']), gt(jobs.expiresAt, now)))
    .orderBy(desc(jobs.createdAt))
    .limit(1);
  return row && asReport(row);
}

/** Removes expired reports (their jobs and records) and answers their files' hashes. */
export async function deleteExpiredReports(db: DbOrTx, now: Date, limit: number): Promise<string[]> {
  const ids = await expiredJobIds(db, REPORT_JOB_KINDS, now, limit);
  if (ids.length === 0) return [];
  const files = await db.select({ fileHash: reports.fileHash }).from(reports).where(inArray(reports.id, ids));
  await deleteJobs(db, ids);
  return [...new Set(files.flatMap((r) => (r.fileHash ? [r.fileHash] : [])))];
}

/** Whether any report or inspection still points at these bytes. */
export async function blobStillUsed(db: DbOrTx, hash: string): Promise<boolean> {
  const [report] = await db.select({ id: reports.id }).from(reports).where(eq(reports.fileHash, hash)).limit(1);
  if (report) return true;
  const [photo] = await db.select({ id: inspectionLogs.id }).from(inspectionLogs).where(eq(inspectionLogs.imageHash, hash)).limit(1);
  return photo !== undefined;
}

/** A user's unexpired reports, newest first. */
export async function listReportsOf(db: DbOrTx, userId: number, options: { kind: string | undefined; limit: number; now: Date }): Promise<ReportRow[]> {
  const rows = await selectReports(db)
    .where(and(eq(jobs.ownerUserId, userId), gt(jobs.expiresAt, options.now), options.kind ? eq(reports.kind, options.kind) : undefined))
    .orderBy(desc(jobs.createdAt))
    .limit(options.limit);
  return rows.map(asReport);
}

/** Records the file a finished report job made (in the transaction that marks its job done). */
export async function recordReportFile(db: DbOrTx, id: string, values: Pick<typeof reports.$inferInsert, 'recordCount' | 'summary' | 'fileHash' | 'fileName' | 'fileSizeBytes' | 'contentType'>): Promise<void> {
  await db.update(reports).set(values).where(eq(reports.id, id));
}
