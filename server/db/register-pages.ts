/**
 * Reading a register (the curves' or the stations'), whose rows stand in the order of the
 * railway's own sheets: division, section, No. (and the id, to break ties). One page for the
 * admin views, or one batch after a row for the export.
 */
import { and, asc, count, eq, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from './client.js';
import type { consolidatedCurveDetails, stations } from './schema.js';

type RegisterTable = typeof consolidatedCurveDetails | typeof stations;
type RowOf<T extends RegisterTable> = T['$inferSelect'];

const registerOrder = (table: RegisterTable) => [asc(table.divisionRailway), asc(table.section), asc(table.no), asc(table.id)];

/** The rows of one page and how many match in all. */
export async function registerPage<T extends RegisterTable>(
  db: DbOrTx,
  table: T,
  where: SQL | undefined,
  page: { limit: number; offset: number },
): Promise<{ rows: RowOf<T>[]; total: number }> {
  const source: RegisterTable = table;
  const [rows, [totalRow]] = await Promise.all([
    db.select().from(source).where(where).orderBy(...registerOrder(table)).limit(page.limit).offset(page.offset),
    db.select({ total: count() }).from(source).where(where),
  ]);
  return { rows: rows as RowOf<T>[], total: totalRow?.total ?? 0 };
}

/**
 * One batch of the register in its order, after the last row of the previous batch: the export
 * reads any number of rows in constant memory, and a batch costs the same at row 100,000 as
 * at row 1 (no OFFSET).
 */
export async function registerBatch<T extends RegisterTable>(
  db: DbOrTx,
  table: T,
  division: string | undefined,
  after: RowOf<T> | null,
  limit: number,
): Promise<RowOf<T>[]> {
  const source: RegisterTable = table;
  const rows = await db
    .select()
    .from(source)
    .where(
      and(
        division ? eq(table.divisionRailway, division) : undefined,
        after
          ? sql`(${table.divisionRailway}, ${table.section}, ${table.no}, ${table.id}) > (${after.divisionRailway}, ${after.section}, ${after.no}, ${after.id})`
          : undefined,
      ),
    )
    .orderBy(...registerOrder(table))
    .limit(limit);
  return rows as RowOf<T>[];
}
