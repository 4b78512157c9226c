import { count, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { consolidatedCurveDetails, inspectionLogs, stations } from '../../db/schema.js';

/** The tables the Data Summary counts, by their names in the database. */
const COUNTED_TABLES = { consolidated_curve_details: consolidatedCurveDetails, stations, inspection_logs: inspectionLogs } as const;
export type CountedTable = keyof typeof COUNTED_TABLES;

/** Rows of a table, within one division when given. */
export async function countRows(db: DbOrTx, table: CountedTable, division: string | undefined): Promise<number> {
  const source = COUNTED_TABLES[table];
  const [row] = await db
    .select({ n: count() })
    .from(source)
    .where(division === undefined ? undefined : eq(source.divisionRailway, division));
  return row?.n ?? 0;
}
