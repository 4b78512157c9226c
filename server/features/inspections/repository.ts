import { and, count, eq, gte, ilike, inArray, lte, sql, type SQL } from 'drizzle-orm';
import { containsPattern, recordLineOf } from '../../db/sql-helpers.js';
import type { DbOrTx } from '../../db/client.js';
import { consolidatedCurveDetails, inspectionLogs, type InspectionRow } from '../../db/schema.js';

export type NewInspectionRow = typeof inspectionLogs.$inferInsert;

export async function findInspectionByRecordId(db: DbOrTx, recordId: string): Promise<InspectionRow | undefined> {
  const [row] = await db.select().from(inspectionLogs).where(eq(inspectionLogs.recordId, recordId)).limit(1);
  return row;
}

export function findInspectionsByRecordIds(db: DbOrTx, recordIds: readonly string[]): Promise<InspectionRow[]> {
  if (recordIds.length === 0) return Promise.resolve([]);
  return db.select().from(inspectionLogs).where(inArray(inspectionLogs.recordId, [...recordIds]));
}

export async function findInspectionBySubmissionId(db: DbOrTx, clientSubmissionId: string): Promise<InspectionRow | undefined> {
  const [row] = await db.select().from(inspectionLogs).where(eq(inspectionLogs.clientSubmissionId, clientSubmissionId)).limit(1);
  return row;
}

/** Inserts unless the clientSubmissionId is already stored; undefined then. */
export async function insertInspection(db: DbOrTx, row: NewInspectionRow): Promise<InspectionRow | undefined> {
  const [created] = await db
    .insert(inspectionLogs)
    .values(row)
    .onConflictDoNothing({ target: inspectionLogs.clientSubmissionId })
    .returning();
  return created;
}

/** Deletes the records and answers the rows as they were. */
export function deleteInspectionsByRecordIds(db: DbOrTx, recordIds: readonly string[]): Promise<InspectionRow[]> {
  if (recordIds.length === 0) return Promise.resolve([]);
  return db.delete(inspectionLogs).where(inArray(inspectionLogs.recordId, [...recordIds])).returning();
}

/** What a list may be narrowed by; every field is optional and they combine with AND. */
export interface InspectionFilter {
  division?: string | undefined;
  technicianId?: string | undefined;
  type?: string | undefined;
  /** Inclusive bounds on the visit's date (YYYY-MM-DD). */
  from?: string | undefined;
  to?: string | undefined;
  section?: string | undefined;
  curveNumber?: string | undefined;
  /** Part of a record ID, any case. */
  q?: string | undefined;
  /**
   * The SSE in charge, any case: the one the technician recorded with the visit, or the
   * register's SSE of the curve (the pickers list the register's SSEs; a visit recorded
   * without one, or before the curve changed hands, still counts for the register's SSE).
   */
  sse?: string | undefined;
  /** Only records stored up to this instant: a report's records are fixed when it is asked for. */
  submittedUntil?: Date | undefined;
}

/** LIKE treats % and _ as wildcards; a search for them means the characters themselves. */

export function inspectionWhere(filter: InspectionFilter): SQL | undefined {
  const t = inspectionLogs;
  return and(
    filter.division !== undefined ? eq(t.divisionRailway, filter.division) : undefined,
    filter.technicianId !== undefined ? eq(t.technicianId, filter.technicianId) : undefined,
    filter.type !== undefined ? eq(t.type, filter.type) : undefined,
    filter.from !== undefined ? gte(t.date, filter.from) : undefined,
    filter.to !== undefined ? lte(t.date, filter.to) : undefined,
    filter.section !== undefined ? eq(t.section, filter.section) : undefined,
    filter.curveNumber !== undefined ? eq(t.curveNumber, filter.curveNumber) : undefined,
    filter.q !== undefined ? ilike(t.recordId, containsPattern(filter.q)) : undefined,
    filter.sse !== undefined ? sseWhere(filter.sse) : undefined,
    filter.submittedUntil !== undefined ? lte(t.submittedAt, filter.submittedUntil) : undefined,
  );
}

function sseWhere(sse: string): SQL {
  const t = inspectionLogs;
  const name = sse.trim().toLowerCase();
  return sql`(lower(btrim(${t.railwayEngineer})) = ${name} or exists (
    select 1 from ${consolidatedCurveDetails} c
    where c.section = ${t.section} and c.curve_number = ${t.curveNumber} and ${recordLineOf(sql`c.line`)} = ${t.line}
      and lower(btrim(c.sse)) = ${name}))`;
}

/**
 * One page, newest first; the id orders records of the same instant. Spelled `nulls last`
 * (both columns are NOT NULL, so the order is the same) because that is how the indexes are
 * built: PostgreSQL uses an index for ORDER BY only when the NULLS order matches too, and a
 * plain DESC means NULLS FIRST. Without it every page sorted all matching rows (30-60 ms at 100k).
 */
export function listInspectionPage(db: DbOrTx, filter: InspectionFilter, page: { limit: number; offset: number }): Promise<InspectionRow[]> {
  return db
    .select()
    .from(inspectionLogs)
    .where(inspectionWhere(filter))
    .orderBy(sql`${inspectionLogs.submittedAt} desc nulls last`, sql`${inspectionLogs.id} desc nulls last`)
    .limit(page.limit)
    .offset(page.offset);
}

export async function countInspections(db: DbOrTx, filter: InspectionFilter): Promise<number> {
  const [row] = await db.select({ n: count() }).from(inspectionLogs).where(inspectionWhere(filter));
  return row?.n ?? 0;
}
