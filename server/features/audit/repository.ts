import { count, desc } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { auditLog } from '../../db/schema.js';

export type AuditRow = typeof auditLog.$inferSelect;
export type NewAuditRow = typeof auditLog.$inferInsert;

/** Rows a statement holds: 10 columns a row stays far below PostgreSQL's 65,535 parameters. */
const INSERT_CHUNK = 1000;

export async function insertAuditRows(db: DbOrTx, rows: readonly NewAuditRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
    await db.insert(auditLog).values(rows.slice(i, i + INSERT_CHUNK));
  }
}

/** Newest first; the id breaks ties between entries of the same instant. */
export function listAuditRows(db: DbOrTx, page: { limit: number; offset: number }): Promise<AuditRow[]> {
  return db.select().from(auditLog).orderBy(desc(auditLog.at), desc(auditLog.id)).limit(page.limit).offset(page.offset);
}

export async function countAuditRows(db: DbOrTx): Promise<number> {
  const [row] = await db.select({ n: count() }).from(auditLog);
  return row?.n ?? 0;
}
