import { and, asc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { consolidatedCurveDetails as curves, stations } from '../../db/schema.js';

/**
 * The register's lists for filters: sections of curves or stations (of one division), and the
 * SSE names of the curves without the 'SSE' placeholder (the original app's rule), alphabetical.
 */
export async function listRegisterFilters(db: DbOrTx, division: string | undefined) {
  const [sections, sses] = await Promise.all([
    db
      .selectDistinct({ divisionRailway: curves.divisionRailway, section: curves.section })
      .from(curves)
      .where(division ? eq(curves.divisionRailway, division) : undefined)
      .union(
        db
          .selectDistinct({ divisionRailway: stations.divisionRailway, section: stations.section })
          .from(stations)
          .where(division ? eq(stations.divisionRailway, division) : undefined),
      )
      .orderBy(asc(curves.divisionRailway), asc(curves.section)),
    db
      .selectDistinct({ sse: curves.sse })
      .from(curves)
      .where(and(division ? eq(curves.divisionRailway, division) : undefined, sql`btrim(coalesce(${curves.sse}, '')) not in ('', 'SSE')`))
      .orderBy(asc(curves.sse)),
  ]);
  return { sections, sses: sses.flatMap((r) => (r.sse === null ? [] : [r.sse])) };
}
