import { count, desc, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.js';
import { auditLog } from '../db/schema.js';
import { columnList, recordset } from '../db/sql-helpers.js';

export type AuditRow = typeof auditLog.$inferSelect;
export type NewAuditRow = typeof auditLog.$inferInsert;

const AUDIT_COLUMNS = {
  actor_user_id: 'integer',
  actor_employee_id: 'varchar',
  action: 'varchar',
  entity: 'varchar',
  entity_id: 'varchar',
  before: 'jsonb',
  after: 'jsonb',
  request_id: 'varchar',
} as const;
/** Entries a statement carries (an import writes one per changed row). */
const INSERT_CHUNK = 5000;

/** Many entries as one parameter a statement, their time the transaction's (now()). */
export async function insertAuditRows(db: DbOrTx, rows: readonly NewAuditRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
    const chunk = rows.slice(i, i + INSERT_CHUNK).map((r) => ({
      actor_user_id: r.actorUserId ?? null,
      actor_employee_id: r.actorEmployeeId ?? null,
      action: r.action,
      entity: r.entity,
      entity_id: r.entityId ?? null,
      before: r.before ?? null,
      after: r.after ?? null,
      request_id: r.requestId ?? null,
    }));
    await db.execute(
      sql`insert into ${auditLog} (${columnList(AUDIT_COLUMNS)}) select ${columnList(AUDIT_COLUMNS)} from ${recordset('a', AUDIT_COLUMNS, chunk)}`,
    );
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
