import { and, eq, ilike, ne, or, sql, type SQL } from 'drizzle-orm';
import type { CurveKey } from '../../../common/schemas/register.js';
import type { DbOrTx } from '../../db/client.js';
import { consolidatedCurveDetails as curves, type CurveRow } from '../../db/schema.js';
import { registerBatch, registerPage } from '../../db/register-pages.js';
import { columnList, containsPattern, recordset } from '../../db/sql-helpers.js';

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

export function listCurves(db: DbOrTx, filter: CurveFilter, page: { limit: number; offset: number }): Promise<{ rows: CurveRow[]; total: number }> {
  return registerPage(db, curves, whereOf(filter), page);
}

/** One batch of the register in its order, after the previous batch's last row (see registerBatch). */
export function curveBatch(db: DbOrTx, division: string | undefined, after: CurveRow | null, limit: number): Promise<CurveRow[]> {
  return registerBatch(db, curves, division, after, limit);
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

/** The register's writable columns and their SQL types, for the bulk statements below. */
const CURVE_COLUMNS = {
  no: 'integer',
  hkm_code: 'integer',
  division_railway: 'varchar',
  section: 'varchar',
  curve_number: 'varchar',
  line: 'varchar',
  km_from: 'integer',
  met_from: 'integer',
  km_to: 'integer',
  met_to: 'integer',
  length: 'integer',
  station1: 'varchar',
  station2: 'varchar',
  degree: 'numeric',
  den: 'varchar',
  aen: 'varchar',
  sse: 'varchar',
  comments: 'text',
} as const;
const KEY_COLUMNS = { section: 'varchar', curve_number: 'varchar', line: 'varchar' } as const;

/** For an import: the curves with these keys (one statement, the keys as one parameter). */
export async function findCurvesByKeys(db: DbOrTx, keys: readonly CurveKey[]): Promise<CurveRow[]> {
  if (keys.length === 0) return [];
  const wanted = keys.map((k) => ({ section: k.section, curve_number: k.curveNumber, line: k.line }));
  return db
    .select()
    .from(curves)
    .where(
      sql`(${curves.section}, ${curves.curveNumber}, ${curves.line}) in (select section, curve_number, line from ${recordset('k', KEY_COLUMNS, wanted)})`,
    );
}

export async function findCurvesByHkmCodes(db: DbOrTx, codes: readonly number[]): Promise<CurveRow[]> {
  if (codes.length === 0) return [];
  return db
    .select()
    .from(curves)
    .where(sql`${curves.hkmCode} in (select code from ${recordset('c', { code: 'integer' }, codes.map((code) => ({ code })))})`);
}

/** Frees the HKM codes of these curves, so an import may move codes between curves (a swap). */
export async function clearHkmCodes(db: DbOrTx, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  await db
    .update(curves)
    .set({ hkmCode: null })
    .where(sql`${curves.id} in (select id from ${recordset('i', { id: 'integer' }, ids.map((id) => ({ id })))})`);
}

/** Inserts new curves and overwrites changed ones by their key: one statement per chunk of rows. */
export async function upsertCurves(db: DbOrTx, rows: readonly NewCurveRow[]): Promise<void> {
  const set = Object.keys(CURVE_COLUMNS)
    .filter((c) => !(c in KEY_COLUMNS))
    .map((c) => `${c} = excluded.${c}`)
    .join(', ');
  for (let i = 0; i < rows.length; i += UPSERT_CHUNK) {
    const chunk = rows.slice(i, i + UPSERT_CHUNK).map((r) => ({
      no: r.no,
      hkm_code: r.hkmCode ?? null,
      division_railway: r.divisionRailway,
      section: r.section,
      curve_number: r.curveNumber,
      line: r.line,
      km_from: r.kmFrom ?? null,
      met_from: r.metFrom ?? null,
      km_to: r.kmTo ?? null,
      met_to: r.metTo ?? null,
      length: r.length ?? null,
      station1: r.station1 ?? null,
      station2: r.station2 ?? null,
      degree: r.degree ?? null,
      den: r.den ?? null,
      aen: r.aen ?? null,
      sse: r.sse ?? null,
      comments: r.comments ?? null,
    }));
    await db.execute(
      sql`insert into ${curves} (${columnList(CURVE_COLUMNS)}) select ${columnList(CURVE_COLUMNS)} from ${recordset('r', CURVE_COLUMNS, chunk)}
        on conflict (section, curve_number, line) do update set ${sql.raw(set)}, updated_at = now()`,
    );
  }
}

/** Rows a statement carries: bounds the JSON parameter (about 300 bytes a curve). */
const UPSERT_CHUNK = 5000;
