import { and, asc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { stations } from '../../db/schema.js';

export function listStationsOfSection(db: DbOrTx, section: string, division: string | undefined) {
  return db
    .select()
    .from(stations)
    .where(and(eq(stations.section, section), division ? eq(stations.divisionRailway, division) : undefined))
    .orderBy(asc(stations.no), asc(stations.id));
}
