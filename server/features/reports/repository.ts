import { and, desc, eq, gt, inArray, lte } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { inspectionLogs, reports } from '../../db/schema.js';

export type ReportRow = typeof reports.$inferSelect;
export type NewReportRow = typeof reports.$inferInsert;

export async function insertReport(db: DbOrTx, row: NewReportRow): Promise<ReportRow> {
  const [stored] = await db.insert(reports).values(row).returning();
  if (!stored) throw new Error('report insert returned nothing');
  return stored;
}

export async function findReport(db: DbOrTx, id: string): Promise<ReportRow | undefined> {
  const [row] = await db.select().from(reports).where(eq(reports.id, id)).limit(1);
  return row;
}

/** The newest finished, unexpired report made from the same parameters and data. */
export async function findReusableReport(db: DbOrTx, dedupeKey: string, now: Date): Promise<ReportRow | undefined> {
  const [row] = await db
    .select()
    .from(reports)
    .where(and(eq(reports.dedupeKey, dedupeKey), eq(reports.status, 'done'), gt(reports.expiresAt, now)))
    .orderBy(desc(reports.createdAt))
    .limit(1);
  return row;
}

/** Removes expired reports' rows and answers their files' hashes. */
export async function deleteExpiredReports(db: DbOrTx, now: Date, limit: number): Promise<string[]> {
  const expired = db.select({ id: reports.id }).from(reports).where(lte(reports.expiresAt, now)).limit(limit);
  const rows = await db.delete(reports).where(inArray(reports.id, expired)).returning({ fileHash: reports.fileHash });
  return [...new Set(rows.flatMap((r) => (r.fileHash ? [r.fileHash] : [])))];
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
  return db
    .select()
    .from(reports)
    .where(and(eq(reports.requestedByUserId, userId), gt(reports.expiresAt, options.now), options.kind ? eq(reports.kind, options.kind) : undefined))
    .orderBy(desc(reports.createdAt))
    .limit(options.limit);
}
