import { count, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { consolidatedCurveDetails, inspectionLogs, stations } from '../../db/schema.js';

/** Rows of a table, within one division when given. */
export async function countCurves(db: DbOrTx, division: string | undefined): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(consolidatedCurveDetails)
    .where(division === undefined ? undefined : eq(consolidatedCurveDetails.divisionRailway, division));
  return row?.n ?? 0;
}

export async function countStations(db: DbOrTx, division: string | undefined): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(stations)
    .where(division === undefined ? undefined : eq(stations.divisionRailway, division));
  return row?.n ?? 0;
}

export async function countInspectionRecords(db: DbOrTx, division: string | undefined): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(inspectionLogs)
    .where(division === undefined ? undefined : eq(inspectionLogs.divisionRailway, division));
  return row?.n ?? 0;
}
