/** The curve register and its reference tables: curves, stations, parts, machines, HKM controllers. */
import { index, integer, numeric, pgTable, serial, text, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from './columns.js';

export const consolidatedCurveDetails = pgTable(
  'consolidated_curve_details',
  {
    id: serial('id').primaryKey(),
    no: integer('no').notNull(),
    hkmCode: integer('hkm_code').unique(),
    divisionRailway: varchar('division_railway', { length: 50 }).notNull(),
    section: varchar('section', { length: 100 }).notNull(),
    curveNumber: varchar('curve_number', { length: 50 }).notNull(),
    line: varchar('line', { length: 10 }).notNull(),
    kmFrom: integer('km_from'),
    metFrom: integer('met_from'),
    kmTo: integer('km_to'),
    metTo: integer('met_to'),
    /** Curve length in metres. */
    length: integer('length'),
    station1: varchar('station1', { length: 100 }),
    station2: varchar('station2', { length: 100 }),
    degree: numeric('degree', { precision: 5, scale: 2 }),
    den: varchar('den', { length: 100 }),
    aen: varchar('aen', { length: 150 }),
    sse: varchar('sse', { length: 150 }),
    comments: text('comments'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // The spec edits and deletes a curve by (section, curveNumber, line): that is its key.
    uniqueIndex('curves_section_number_line_uq').on(t.section, t.curveNumber, t.line),
    // The register's order (division, section, No.): lists, filters and the export's batches.
    index('curves_register_order_idx').on(t.divisionRailway, t.section, t.no, t.id),
  ],
);

export const machineDashboardSummary = pgTable('machine_dashboard_summary', {
  id: serial('id').primaryKey(),
  division: varchar('division', { length: 50 }).notNull().unique(),
  scope: integer('scope').notNull().default(0),
  foundationCompleted: integer('foundation_completed').notNull().default(0),
  machinesInstalled: integer('machines_installed').notNull().default(0),
  machinesCommissioned: integer('machines_commissioned').notNull().default(0),
  updatedAt: updatedAt(),
});

export const stations = pgTable(
  'stations',
  {
    id: serial('id').primaryKey(),
    no: integer('no').notNull(),
    stationName: varchar('station_name', { length: 100 }).notNull(),
    stationCode: varchar('station_code', { length: 20 }).notNull(),
    section: varchar('section', { length: 100 }).notNull(),
    divisionRailway: varchar('division_railway', { length: 50 }).notNull(),
  },
  (t) => [
    // A station is known by its code within its section: imports upsert by that key.
    uniqueIndex('stations_section_code_uq').on(t.section, t.stationCode),
    index('stations_section_idx').on(t.section, t.no),
    index('stations_register_order_idx').on(t.divisionRailway, t.section, t.no, t.id),
  ],
);

export const machineParts = pgTable(
  'machine_parts',
  {
    id: serial('id').primaryKey(),
    no: integer('no').notNull(),
    category: varchar('category', { length: 100 }).notNull(),
    itemName: varchar('item_name', { length: 200 }).notNull(),
  },
  (t) => [uniqueIndex('machine_parts_category_item_uq').on(t.category, t.itemName)],
);

export const machineDetails = pgTable(
  'machine_details',
  {
    id: serial('id').primaryKey(),
    jurisdiction: varchar('jurisdiction', { length: 200 }).notNull(),
    level: varchar('level', { length: 10 }).notNull(),
    parentJurisdiction: varchar('parent_jurisdiction', { length: 200 }),
    curveCount: integer('curve_count').notNull().default(0),
    foundationCompleted: integer('foundation_completed').notNull().default(0),
    machinesInstalled: integer('machines_installed').notNull().default(0),
    machinesCommissioned: integer('machines_commissioned').notNull().default(0),
    foundationCompletedDate: timestamp('foundation_completed_date', { withTimezone: true }),
    machinesInstalledDate: timestamp('machines_installed_date', { withTimezone: true }),
    machinesCommissionedDate: timestamp('machines_commissioned_date', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('machine_details_parent_idx').on(t.parentJurisdiction, t.level)],
);

export const curveRecords = pgTable(
  'curve_records',
  {
    id: serial('id').primaryKey(),
    no: integer('no').notNull(),
    phase: varchar('phase', { length: 10 }),
    divisionRailway: varchar('division_railway', { length: 50 }).notNull(),
    section: varchar('section', { length: 100 }).notNull(),
    curveNumber: varchar('curve_number', { length: 50 }).notNull(),
    line: varchar('line', { length: 10 }).notNull(),
    den: varchar('den', { length: 100 }),
    aen: varchar('aen', { length: 150 }),
    sse: varchar('sse', { length: 150 }),
    foundationActual: varchar('foundation_actual', { length: 20 }),
    machineActual: varchar('machine_actual', { length: 20 }),
    commissioned: varchar('commissioned', { length: 20 }),
    createdAt: createdAt(),
  },
  (t) => [
    index('curve_records_division_section_idx').on(t.divisionRailway, t.section),
    index('curve_records_den_aen_idx').on(t.den, t.aen),
    // The schedule finds each register curve's record by section and curve number (then line):
    // one probe per curve, never a scan (server/db/rollout-sql.ts, rolloutRecordOfCurve).
    index('curve_records_section_curve_idx').on(t.section, t.curveNumber),
  ],
);

export const hkmControllerMapping = pgTable('hkm_controller_mapping', {
  id: serial('id').primaryKey(),
  hkmCode: integer('hkm_code').notNull().unique(),
  controllerNumber: integer('controller_number').notNull(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export type CurveRow = typeof consolidatedCurveDetails.$inferSelect;
export type StationRow = typeof stations.$inferSelect;
