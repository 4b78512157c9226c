import { and, asc, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { stations, type StationRow } from '../../db/schema.js';
import { registerBatch, registerPage } from '../../db/register-pages.js';
import { columnList, containsPattern, recordset } from '../../db/sql-helpers.js';

export type NewStationRow = typeof stations.$inferInsert;
export interface StationKey {
  section: string;
  stationCode: string;
}

export function listStationsOfSection(db: DbOrTx, section: string, division: string | undefined) {
  return db
    .select()
    .from(stations)
    .where(and(eq(stations.section, section), division ? eq(stations.divisionRailway, division) : undefined))
    .orderBy(asc(stations.no), asc(stations.id));
}

export interface StationFilter {
  division?: string | undefined;
  section?: string | undefined;
  /** Part of a station name or code. */
  q?: string | undefined;
}

function whereOf(filter: StationFilter): SQL | undefined {
  return and(
    filter.division ? eq(stations.divisionRailway, filter.division) : undefined,
    filter.section ? eq(stations.section, filter.section) : undefined,
    filter.q ? or(ilike(stations.stationName, containsPattern(filter.q)), ilike(stations.stationCode, containsPattern(filter.q))) : undefined,
  );
}

export function listStations(db: DbOrTx, filter: StationFilter, page: { limit: number; offset: number }): Promise<{ rows: StationRow[]; total: number }> {
  return registerPage(db, stations, whereOf(filter), page);
}

/** One batch of the register in its order, after the previous batch's last row (see registerBatch). */
export function stationBatch(db: DbOrTx, division: string | undefined, after: StationRow | null, limit: number): Promise<StationRow[]> {
  return registerBatch(db, stations, division, after, limit);
}

export async function findStationById(db: DbOrTx, id: number): Promise<StationRow | undefined> {
  const [row] = await db.select().from(stations).where(eq(stations.id, id)).limit(1);
  return row;
}

export async function findStationByKey(db: DbOrTx, key: StationKey): Promise<StationRow | undefined> {
  const [row] = await db
    .select()
    .from(stations)
    .where(and(eq(stations.section, key.section), eq(stations.stationCode, key.stationCode)))
    .limit(1);
  return row;
}

export async function insertStation(db: DbOrTx, values: NewStationRow): Promise<StationRow> {
  const [row] = await db.insert(stations).values(values).returning();
  if (!row) throw new Error('insert into stations returned no row');
  return row;
}

export async function updateStation(db: DbOrTx, id: number, values: Partial<NewStationRow>): Promise<StationRow> {
  const [row] = await db.update(stations).set(values).where(eq(stations.id, id)).returning();
  if (!row) throw new Error(`station ${id} vanished during its update`);
  return row;
}

export async function deleteStation(db: DbOrTx, id: number): Promise<void> {
  await db.delete(stations).where(eq(stations.id, id));
}

const STATION_COLUMNS = { no: 'integer', station_name: 'varchar', station_code: 'varchar', section: 'varchar', division_railway: 'varchar' } as const;

/** For an import: the stations with these keys (one statement, the keys as one parameter). */
export async function findStationsByKeys(db: DbOrTx, keys: readonly StationKey[]): Promise<StationRow[]> {
  if (keys.length === 0) return [];
  const wanted = keys.map((k) => ({ section: k.section, station_code: k.stationCode }));
  return db
    .select()
    .from(stations)
    .where(
      sql`(${stations.section}, ${stations.stationCode}) in (select section, station_code from ${recordset('k', { section: 'varchar', station_code: 'varchar' }, wanted)})`,
    );
}

/** Inserts new stations and overwrites changed ones by their key: one statement per chunk of rows. */
export async function upsertStations(db: DbOrTx, rows: readonly NewStationRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += UPSERT_CHUNK) {
    const chunk = rows.slice(i, i + UPSERT_CHUNK).map((r) => ({
      no: r.no,
      station_name: r.stationName,
      station_code: r.stationCode,
      section: r.section,
      division_railway: r.divisionRailway,
    }));
    await db.execute(
      sql`insert into ${stations} (${columnList(STATION_COLUMNS)}) select ${columnList(STATION_COLUMNS)} from ${recordset('r', STATION_COLUMNS, chunk)}
        on conflict (section, station_code) do update set no = excluded.no, station_name = excluded.station_name, division_railway = excluded.division_railway`,
    );
  }
}

/** Rows a statement carries: bounds the JSON parameter. */
const UPSERT_CHUNK = 10_000;
