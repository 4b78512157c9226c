import { and, asc, count, eq, ilike, inArray, ne, or, sql, type SQL } from 'drizzle-orm';
import type { CurveKey } from '../../../common/schemas/register.js';
import type { DbOrTx } from '../../db/client.js';
import { consolidatedCurveDetails as curves, type CurveRow } from '../../db/schema.js';
import { containsPattern, rowValuesIn } from '../../db/sql-helpers.js';

export type NewCurveRow = typeof curves.$inferInsert;

export interface CurveFilter {
  division?: string | undefined;
  section?: string | undefined;
  sse?: string | undefined;
  /** Part of a curve number or a station name, or the start of an HKM code. */
  q?: string | undefined;
}

function whereOf(filter: CurveFilter): SQL | undefined {
  const q = filter.q;
  return and(
    filter.division ? eq(curves.divisionRailway, filter.division) : undefined,
    filter.section ? eq(curves.section, filter.section) : undefined,
    filter.sse ? eq(curves.sse, filter.sse) : undefined,
    q
      ? or(
          ilike(curves.curveNumber, containsPattern(q)),
          ilike(curves.station1, containsPattern(q)),
          ilike(curves.station2, containsPattern(q)),
          /^\d+$/.test(q) ? sql`${curves.hkmCode}::text like ${`${q}%`}` : undefined,
        )
      : undefined,
  );
}

/** The register's order: division, section, No. (the order of the railway's own sheets). */
const REGISTER_ORDER = [asc(curves.divisionRailway), asc(curves.section), asc(curves.no), asc(curves.id)];

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
      .orderBy(...REGISTER_ORDER)
      .limit(page.limit)
      .offset(page.offset),
    db.select({ total: count() }).from(curves).where(where),
  ]);
  return { rows, total: totalRow?.total ?? 0 };
}

/**
 * One batch of the register in its order, after the last row of the previous batch: the export
 * reads any number of curves in constant memory, and a batch costs the same at row 100,000 as
 * at row 1 (no OFFSET).
 */
export function curveBatch(db: DbOrTx, division: string | undefined, after: CurveRow | null, limit: number): Promise<CurveRow[]> {
  return db
    .select()
    .from(curves)
    .where(
      and(
        division ? eq(curves.divisionRailway, division) : undefined,
        after
          ? sql`(${curves.divisionRailway}, ${curves.section}, ${curves.no}, ${curves.id}) > (${after.divisionRailway}, ${after.section}, ${after.no}, ${after.id})`
          : undefined,
      ),
    )
    .orderBy(...REGISTER_ORDER)
    .limit(limit);
}

export async function findCurveByKey(db: DbOrTx, key: CurveKey): Promise<CurveRow | undefined> {
  const [row] = await db
    .select()
    .from(curves)
    .where(and(eq(curves.section, key.section), eq(curves.curveNumber, key.curveNumber), eq(curves.line, key.line)))
    .limit(1);
  return row;
}

/** The curve holding an HKM code, other than the one with `exceptId`. */
export async function findCurveByHkmCode(db: DbOrTx, hkmCode: number, exceptId?: number): Promise<CurveRow | undefined> {
  const [row] = await db
    .select()
    .from(curves)
    .where(and(eq(curves.hkmCode, hkmCode), exceptId === undefined ? undefined : ne(curves.id, exceptId)))
    .limit(1);
  return row;
}

export async function insertCurve(db: DbOrTx, values: NewCurveRow): Promise<CurveRow> {
  const [row] = await db.insert(curves).values(values).returning();
  if (!row) throw new Error('insert into consolidated_curve_details returned no row');
  return row;
}

export async function updateCurve(db: DbOrTx, id: number, values: Partial<NewCurveRow>): Promise<CurveRow> {
  const [row] = await db.update(curves).set(values).where(eq(curves.id, id)).returning();
  if (!row) throw new Error(`curve ${id} vanished during its update`);
  return row;
}

export async function deleteCurve(db: DbOrTx, id: number): Promise<void> {
  await db.delete(curves).where(eq(curves.id, id));
}

/** For an import: the curves with these keys, in chunks that keep each statement's parameters bounded. */
export async function findCurvesByKeys(db: DbOrTx, keys: readonly CurveKey[]): Promise<CurveRow[]> {
  const found: CurveRow[] = [];
  for (let i = 0; i < keys.length; i += KEY_CHUNK) {
    const chunk = keys.slice(i, i + KEY_CHUNK);
    found.push(
      ...(await db
        .select()
        .from(curves)
        .where(rowValuesIn([curves.section, curves.curveNumber, curves.line], chunk.map((k) => [k.section, k.curveNumber, k.line])))),
    );
  }
  return found;
}

export async function findCurvesByHkmCodes(db: DbOrTx, codes: readonly number[]): Promise<CurveRow[]> {
  const found: CurveRow[] = [];
  for (let i = 0; i < codes.length; i += KEY_CHUNK) {
    found.push(...(await db.select().from(curves).where(inArray(curves.hkmCode, codes.slice(i, i + KEY_CHUNK)))));
  }
  return found;
}

/** Frees the HKM codes of these curves, so an import may move codes between curves (a swap). */
export async function clearHkmCodes(db: DbOrTx, ids: readonly number[]): Promise<void> {
  for (let i = 0; i < ids.length; i += KEY_CHUNK) {
    await db.update(curves).set({ hkmCode: null }).where(inArray(curves.id, ids.slice(i, i + KEY_CHUNK)));
  }
}

/** Inserts new curves and overwrites changed ones by their key, in multi-row statements. */
export async function upsertCurves(db: DbOrTx, rows: readonly NewCurveRow[]): Promise<void> {
  // 18 columns a row: 1,000 rows stay far below PostgreSQL's 65,535 parameters.
  for (let i = 0; i < rows.length; i += UPSERT_CHUNK) {
    await db
      .insert(curves)
      .values(rows.slice(i, i + UPSERT_CHUNK))
      .onConflictDoUpdate({
        target: [curves.section, curves.curveNumber, curves.line],
        set: {
          no: sql`excluded.no`,
          hkmCode: sql`excluded.hkm_code`,
          divisionRailway: sql`excluded.division_railway`,
          kmFrom: sql`excluded.km_from`,
          metFrom: sql`excluded.met_from`,
          kmTo: sql`excluded.km_to`,
          metTo: sql`excluded.met_to`,
          length: sql`excluded.length`,
          station1: sql`excluded.station1`,
          station2: sql`excluded.station2`,
          degree: sql`excluded.degree`,
          den: sql`excluded.den`,
          aen: sql`excluded.aen`,
          sse: sql`excluded.sse`,
          comments: sql`excluded.comments`,
          updatedAt: sql`now()`,
        },
      });
  }
}

const KEY_CHUNK = 2000;
const UPSERT_CHUNK = 1000;
