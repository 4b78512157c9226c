/**
 * Inserts the demo rows inside the caller's transaction. Rows with a natural key use
 * ON CONFLICT DO NOTHING, so nothing already there is overwritten; the counts are of rows
 * actually inserted.
 */
import { sql } from 'drizzle-orm';
import type { PgInsertValue, PgTable } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../client.js';
import {
  consolidatedCurveDetails,
  curveRecords,
  hkmControllerMapping,
  inspectionLogs,
  machineDashboardSummary,
  machineDetails,
  machineParts,
  stations,
  users,
} from '../schema.js';
import type { DemoDataset } from './dataset.js';
import { toInspectionRow, type InspectionPhoto } from './inspections.js';
import { DEMO_USERS } from './users.js';

export interface SeedSummary {
  users: number;
  stations: number;
  curves: number;
  machineParts: number;
  machineDashboardSummaries: number;
  curveRecords: number;
  machineDetails: number;
  hkmControllerMappings: number;
  inspections: number;
  /** Distinct photo blobs the inserted inspections refer to. */
  photos: number;
}

export const EMPTY_SUMMARY: Readonly<SeedSummary> = {
  users: 0,
  stations: 0,
  curves: 0,
  machineParts: 0,
  machineDashboardSummaries: 0,
  curveRecords: 0,
  machineDetails: 0,
  hkmControllerMappings: 0,
  inspections: 0,
  photos: 0,
};

/** Any number unique to this use: two instances starting together seed one after the other. */
const SEED_LOCK_KEY = 471_002_026;
/** Keeps each statement well under PostgreSQL's 65,535 bind parameters. */
const ROWS_PER_STATEMENT = 500;

export async function lockSeed(tx: DbOrTx): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${SEED_LOCK_KEY})`);
}

export async function missingDemoUsers(db: DbOrTx): Promise<number> {
  const ids = DEMO_USERS.map((u) => u.employeeId.toLowerCase());
  const present = await db
    .select({ employeeId: users.employeeId })
    .from(users)
    .where(sql`lower(${users.employeeId}) in (${sql.join(ids.map((id) => sql`${id}`), sql`, `)})`);
  return DEMO_USERS.length - present.length;
}

/**
 * Demo data goes only into a database without curves: curves are what every other table
 * hangs off, and mixing invented inspections into a real register would mislead.
 */
export async function hasCurves(db: DbOrTx): Promise<boolean> {
  const rows = await db.select({ id: consolidatedCurveDetails.id }).from(consolidatedCurveDetails).limit(1);
  return rows.length > 0;
}

export async function insertDemoUsers(tx: DbOrTx, passwordHash: string): Promise<number> {
  return insertRows(
    tx,
    users,
    // Marked as demo accounts: they sign in only while demo mode is on.
    DEMO_USERS.map((u) => ({ ...u, passwordHash, isDemo: true })),
  );
}

export async function insertDataset(
  tx: DbOrTx,
  dataset: DemoDataset,
  /** Each inspection's own photo, by record ID. */
  photos: ReadonlyMap<string, InspectionPhoto>,
): Promise<Omit<SeedSummary, 'users'>> {
  const inspectionRows = dataset.inspections.map((inspection) => {
    const photo = photos.get(inspection.fields.recordId);
    if (!photo) throw new Error(`No photo stored for ${inspection.fields.recordId}`);
    return toInspectionRow(inspection, photo);
  });
  const summary = {
    stations: await insertRows(tx, stations, dataset.stations),
    curves: await insertRows(tx, consolidatedCurveDetails, dataset.curves),
    machineParts: await insertRows(tx, machineParts, dataset.machineParts),
    machineDashboardSummaries: await insertRows(tx, machineDashboardSummary, dataset.dashboardSummaries),
    curveRecords: await insertRows(tx, curveRecords, dataset.curveRecords),
    machineDetails: await insertRows(tx, machineDetails, dataset.machineDetails),
    hkmControllerMappings: await insertRows(tx, hkmControllerMapping, dataset.hkmControllerMappings),
    inspections: await insertRows(tx, inspectionLogs, inspectionRows),
  };
  return {
    ...summary,
    photos: summary.inspections > 0 ? new Set(inspectionRows.map((r) => r.imageHash)).size : 0,
  };
}

async function insertRows<T extends PgTable>(tx: DbOrTx, table: T, rows: ReadonlyArray<PgInsertValue<T>>): Promise<number> {
  let inserted = 0;
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) {
    const result = await tx
      .insert(table)
      .values(rows.slice(i, i + ROWS_PER_STATEMENT))
      .onConflictDoNothing()
      .returning({ one: sql<number>`1` });
    inserted += result.length;
  }
  return inserted;
}
