/**
 * What the three PDF reports of inspection records share: who may ask for which division,
 * fixing the records at the moment of asking (so the count answered at once is the count
 * printed, however late or often the job is made), the limits on size, and reading the
 * records back in the job.
 */
import { asc, desc, sql } from 'drizzle-orm';
import { divisionScope } from '../../../common/rules/division-scope.js';
import type { ReportJobResponse, ReportKind } from '../../../common/schemas/reports.js';
import { AppError } from '../../app-error.js';
import type { Db } from '../../db/client.js';
import { inspectionLogs, type InspectionRow } from '../../db/schema.js';
import { readTableVersions } from '../../db/versioned-cache.js';
import type { Actor } from '../../audit/index.js';
import { countInspections, type InspectionFilter, inspectionWhere } from '../inspections/index.js';
import { isHighReading } from './record-texts.js';
import type { ReportRow } from './repository.js';
import { downloadUrlOf, type ReportService } from './service.js';
import type { ReportJob } from './report-job.js';

/** How long a report request waits for its job before answering 202 with its progress. */
export const QUICK_WAIT_MS = 3000;

/** The filters a records report stores in its job: plain values, no Dates. */
export type StoredFilter = Omit<InspectionFilter, 'submittedUntil'>;

export interface RecordReportsDeps {
  db: Db;
  reports: ReportService;
  now: () => Date;
  cofAlertThreshold: number;
}

/** The division a user's report covers: a Client's own whatever they ask; 'all' is every division. */
export function reportDivision(actor: Actor, requested: string): string | undefined {
  const scope = divisionScope(actor.user, requested === 'all' ? undefined : requested);
  if (scope.none) throw new AppError('FORBIDDEN', 'Your account has no division to report on');
  return scope.division;
}

export function createRecordReports(deps: RecordReportsDeps) {
  const { db } = deps;

  /**
   * Queues a report of the records matching `filter` as they stand now; 404 when none match,
   * 422 when more than one report should hold.
   */
  async function queue(
    actor: Actor,
    request: { kind: ReportKind; params: Record<string, unknown>; filter: StoredFilter; maxRecords: number; noun: string },
  ): Promise<ReportRow> {
    const until = deps.now();
    const count = await countInspections(db, { ...request.filter, submittedUntil: until });
    if (count === 0) throw new AppError('NO_RECORDS', `No ${request.noun} match the selected filters`);
    if (count > request.maxRecords) {
      throw new AppError(
        'REPORT_TOO_LARGE',
        `${count.toLocaleString('en-GB')} ${request.noun} match: one report holds at most ${request.maxRecords.toLocaleString('en-GB')}. Narrow the dates or filters`,
      );
    }
    const versions = await readTableVersions(db, ['inspection_logs']);
    return deps.reports.request(
      actor,
      {
        kind: request.kind,
        params: request.params,
        snapshot: { filter: request.filter, until: until.toISOString(), cofAlertThreshold: deps.cofAlertThreshold },
        division: request.filter.division ?? null,
        // The same records (no write since), the same threshold, the same person (named in it).
        dependsOn: [[...versions.entries()], deps.cofAlertThreshold, actor.user.id],
      },
      count,
    );
  }

  /** Queues, waits a moment, and answers where the report stands (200 done, else 202). */
  async function queueAndAnswer(actor: Actor, request: Parameters<typeof queue>[1]): Promise<{ done: boolean; body: ReportJobResponse }> {
    return answerSoon(deps.reports, await queue(actor, request));
  }

  return { queue, queueAndAnswer };
}

export type RecordReports = ReturnType<typeof createRecordReports>;

/** Waits a moment for a queued report and answers where it stands (200 done, else 202 and its progress). */
export async function answerSoon(reports: ReportService, queued: ReportRow): Promise<{ done: boolean; body: ReportJobResponse }> {
  const row = await reports.waitFor(queued.id, QUICK_WAIT_MS);
  if (row.status === 'failed') throw new AppError('REPORT_FAILED', row.error ?? 'The report could not be made');
  return { done: row.status === 'done', body: jobResponseOf(row) };
}

export function jobResponseOf(row: ReportRow): ReportJobResponse {
  return {
    reportId: row.id,
    status: row.status as ReportJobResponse['status'],
    progress: row.progress,
    recordCount: row.recordCount ?? 0,
    pdfUrl: downloadUrlOf(row.id),
  };
}

/** What a records report's job fixed when it was asked: its filter, its moment, its threshold. */
export function snapshotOf(job: ReportJob): { filter: StoredFilter; until: Date; cofAlertThreshold: number } {
  const snapshot = job.snapshot as { filter?: StoredFilter; until?: string; cofAlertThreshold?: number };
  if (!snapshot.filter || !snapshot.until || snapshot.cofAlertThreshold === undefined) throw new Error(`report ${job.id} has no records snapshot`);
  return { filter: snapshot.filter, until: new Date(snapshot.until), cofAlertThreshold: snapshot.cofAlertThreshold };
}

export type RecordOrder = 'newest' | 'curve' | 'oldest';

/** The job's records, in the order the report states. Rows carry no photo bytes, so all fit in memory. */
export function readRecords(db: Db, job: ReportJob, order: RecordOrder): Promise<InspectionRow[]> {
  const { filter, until } = snapshotOf(job);
  const t = inspectionLogs;
  const orderBy =
    order === 'curve'
      ? [asc(t.section), asc(t.curveNumber), asc(t.line), asc(t.date), asc(t.submittedAt), asc(t.id)]
      : order === 'oldest'
        ? [asc(t.date), asc(t.submittedAt), asc(t.id)]
        : [sql`${t.date} desc`, desc(t.submittedAt), desc(t.id)];
  return db
    .select()
    .from(t)
    .where(inspectionWhere({ ...filter, submittedUntil: until }))
    .orderBy(...orderBy);
}

/** The CoF figures a report's first page states: how many readings, their mean, lowest and highest, and how many are high. */
export function cofFigures(rows: readonly InspectionRow[], threshold: number) {
  const values = rows.flatMap((r) => (r.cofValue === null ? [] : [Number(r.cofValue)]));
  const any = values.length > 0;
  return {
    readings: values.length,
    mean: any ? (values.reduce((a, b) => a + b, 0) / values.length).toFixed(3) : '–',
    lowest: any ? Math.min(...values).toFixed(2) : '–',
    highest: any ? Math.max(...values).toFixed(2) : '–',
    high: rows.filter((r) => isHighReading(r, threshold)),
  };
}

/** Counts of `rows` by a key, largest first, then by name. */
export function countBy<T>(rows: readonly T[], keyOf: (row: T) => string): [string, number][] {
  const counts = new Map<string, number>();
  for (const row of rows) counts.set(keyOf(row), (counts.get(keyOf(row)) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}
