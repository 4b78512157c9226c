import { and, asc, count, eq, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { consolidatedCurveDetails as curves, type CurveRow } from '../../db/schema.js';

export interface CurveFilter {
  division?: string | undefined;
  section?: string | undefined;
}

function whereOf(filter: CurveFilter): SQL | undefined {
  return and(
    filter.division ? eq(curves.divisionRailway, filter.division) : undefined,
    filter.section ? eq(curves.section, filter.section) : undefined,
  );
}

export async function listCurves(
  db: DbOrTx,
  filter: CurveFilter,
  page: { limit: number; offset: number },
): Promise<{ rows: CurveRow[]; total: number }> {
  const where = whereOf(filter);
  const [rows, [totalRow]] = await Promise.all([
    db
      .select()
      .from(curves)
      .where(where)
      .orderBy(asc(curves.divisionRailway), asc(curves.section), asc(curves.no), asc(curves.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ total: count() }).from(curves).where(where),
  ]);
  return { rows, total: totalRow?.total ?? 0 };
}
