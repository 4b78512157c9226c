import { and, asc, eq, sql, type SQL } from 'drizzle-orm';
import type { RolloutFigures } from '../../../common/rules/rollout.js';
import type { DbOrTx } from '../../db/client.js';
import { consolidatedCurveDetails, curveRecords, hkmControllerMapping, machineDashboardSummary } from '../../db/schema.js';
import { rolloutRecordOfCurve } from '../../db/rollout-sql.js';

/** One curve's rollout entries as the sheet holds them; the rule (common/rules/rollout.ts) reads them. */
export interface RolloutCells {
  division: string;
  den: string | null;
  aen: string | null;
  foundation: string | null;
  machine: string | null;
  commissioned: string | null;
}

/**
 * Every curve record's division, DEN, AEN and stage entries: a few hundred kilobytes for 10k
 * curves, read only after the table changed (the service keeps the figures made from them).
 */
export async function readRolloutCells(db: DbOrTx): Promise<RolloutCells[]> {
  return db
    .select({
      division: curveRecords.divisionRailway,
      den: curveRecords.den,
      aen: curveRecords.aen,
      foundation: curveRecords.foundationActual,
      machine: curveRecords.machineActual,
      commissioned: curveRecords.commissioned,
    })
    .from(curveRecords);
}

export type SummaryRow = typeof machineDashboardSummary.$inferSelect;

export async function listSummaryRows(db: DbOrTx): Promise<SummaryRow[]> {
  return db.select().from(machineDashboardSummary).orderBy(asc(machineDashboardSummary.division));
}

/**
 * Locks the division's row until the transaction ends, so two owners saving at once are applied
 * one after the other and each audit entry's "before" is what the other saved. A division never
 * entered gets its row first (all zero): there is nothing to lock otherwise, and two first saves
 * would both see none. Answers the row as it was, or undefined when this call created it.
 */
export async function lockSummaryRow(tx: DbOrTx, division: string): Promise<SummaryRow | undefined> {
  const created = await tx.insert(machineDashboardSummary).values({ division }).onConflictDoNothing().returning({ id: machineDashboardSummary.id });
  if (created.length > 0) return undefined;
  const [row] = await tx.select().from(machineDashboardSummary).where(eq(machineDashboardSummary.division, division)).for('update');
  return row;
}

export async function upsertSummaryRow(tx: DbOrTx, division: string, figures: RolloutFigures): Promise<SummaryRow> {
  const values = { ...figures, updatedAt: sql`now()` };
  const [row] = await tx
    .insert(machineDashboardSummary)
    .values({ division, ...values })
    .onConflictDoUpdate({ target: machineDashboardSummary.division, set: values })
    .returning();
  if (!row) throw new Error(`machine dashboard summary of ${division} was not written`);
  return row;
}

/** The curve records of one division, or of all. */
const divisionWhere = (division: string | undefined): SQL | undefined =>
  division === undefined ? undefined : eq(curveRecords.divisionRailway, division);

export interface MachineReportRow {
  id: number;
  no: number;
  division: string;
  section: string;
  curveNumber: string;
  line: string;
  phase: string | null;
  den: string | null;
  aen: string | null;
  sse: string | null;
  foundation: string | null;
  machine: string | null;
  commissioned: string | null;
  hkmCode: number | null;
  controllerNumber: number | null;
}

/** The register's order key of the last row of a batch: the next batch starts after it. */
export type MachineReportCursor = Pick<MachineReportRow, 'division' | 'section' | 'no' | 'id'>;

/**
 * One batch of the machine report in register order (division, section, No.), each curve with
 * the HKM code of its register entry (rolloutRecordOfCurve: section, curve and line, whichever
 * way the line is spelt, as the schedule matches them) and the controller mapped to that code.
 * DEN and AEN are chosen by the caller with the rollout's name rule (common/rules/rollout.ts),
 * as the dashboard counts them.
 */
export async function listMachineReportRows(
  db: DbOrTx,
  division: string | undefined,
  after: MachineReportCursor | null,
  limit: number,
): Promise<MachineReportRow[]> {
  const r = curveRecords;
  const register = sql`(
    select ${consolidatedCurveDetails.hkmCode} as hkm_code from ${consolidatedCurveDetails}
    where ${rolloutRecordOfCurve(
      { section: sql`${consolidatedCurveDetails.section}`, curveNumber: sql`${consolidatedCurveDetails.curveNumber}`, line: sql`${consolidatedCurveDetails.line}` },
      { section: sql`${r.section}`, curveNumber: sql`${r.curveNumber}`, line: sql`${r.line}` },
    )}
    order by ${consolidatedCurveDetails.id} limit 1
  )`;
  const rows = await db
    .select({
      id: r.id,
      no: r.no,
      division: r.divisionRailway,
      section: r.section,
      curveNumber: r.curveNumber,
      line: r.line,
      phase: r.phase,
      den: r.den,
      aen: r.aen,
      sse: r.sse,
      foundation: r.foundationActual,
      machine: r.machineActual,
      commissioned: r.commissioned,
      hkmCode: sql<number | null>`${register}`,
      controllerNumber: sql<number | null>`(select ${hkmControllerMapping.controllerNumber} from ${hkmControllerMapping} where ${hkmControllerMapping.hkmCode} = ${register})`,
    })
    .from(r)
    .where(
      and(
        divisionWhere(division),
        after ? sql`(${r.divisionRailway}, ${r.section}, ${r.no}, ${r.id}) > (${after.division}, ${after.section}, ${after.no}, ${after.id})` : undefined,
      ),
    )
    .orderBy(asc(r.divisionRailway), asc(r.section), asc(r.no), asc(r.id))
    .limit(limit);
  return rows;
}
