import { and, count, desc, eq, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { inspectionLogs, type InspectionRow } from '../../db/schema.js';

export type NewInspectionRow = typeof inspectionLogs.$inferInsert;

export async function findInspectionByRecordId(db: DbOrTx, recordId: string): Promise<InspectionRow | undefined> {
  const [row] = await db.select().from(inspectionLogs).where(eq(inspectionLogs.recordId, recordId)).limit(1);
  return row;
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

export async function countInspectionsWithImage(db: DbOrTx, imageHash: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(inspectionLogs).where(eq(inspectionLogs.imageHash, imageHash));
  return row?.n ?? 0;
}

export interface InspectionFilter {
  division?: string | undefined;
  technicianId?: string | undefined;
}

export async function listInspections(
  db: DbOrTx,
  filter: InspectionFilter,
  page: { limit: number; offset: number },
): Promise<{ rows: InspectionRow[]; total: number }> {
  const where: SQL | undefined = and(
    filter.division ? eq(inspectionLogs.divisionRailway, filter.division) : undefined,
    filter.technicianId ? eq(inspectionLogs.technicianId, filter.technicianId) : undefined,
  );
  const [rows, [totalRow]] = await Promise.all([
    db
      .select()
      .from(inspectionLogs)
      .where(where)
      .orderBy(desc(inspectionLogs.submittedAt), desc(inspectionLogs.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ total: count() }).from(inspectionLogs).where(where),
  ]);
  return { rows, total: totalRow?.total ?? 0 };
}
