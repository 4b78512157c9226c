/**
 * The two registers as an import sees them: the rule a row must meet, its natural key, how
 * to find the stored rows of a file's keys, the checks that span rows (an HKM code belongs to
 * one curve), and the write. The import engine (import-service.ts) is the same for both.
 */
import { z } from 'zod';
import {
  CURVE_REQUIRED_FIELDS,
  curveCreateSchema,
  type CurveInput,
  type ImportRowError,
  type RegisterKind,
  STATION_REQUIRED_FIELDS,
  stationFields,
  type StationInput,
} from '../../../common/schemas/register.js';
import type { DbOrTx } from '../../db/client.js';
import type { CurveRow, StationRow } from '../../db/schema.js';
import {
  clearHkmCodes,
  curveBatch,
  curveAuditId,
  curveValuesOf,
  describeCurve,
  findCurvesByHkmCodes,
  findCurvesByKeys,
  upsertCurves,
} from '../curves/index.js';
import { describeStation, findStationsByKeys, stationAuditId, stationBatch, stationValuesOf, upsertStations } from '../stations/index.js';

/** One row of a file, checked and matched against the register. */
export interface PlannedRow<V> {
  row: number;
  /** The stored row's values after the import (file values over the stored ones). */
  values: V;
  before: V | null;
  status: 'added' | 'changed' | 'unchanged';
}

export interface Register<V extends Record<string, unknown>, R> {
  kind: RegisterKind;
  entity: 'curve' | 'station';
  schema: z.ZodType<V>;
  required: readonly string[];
  /** The fields that make the key, for naming a duplicate's column. */
  keyFields: readonly string[];
  keyOf(values: V): string;
  describe(values: V): string;
  /** The row's entityId in the audit trail, as the add and edit calls write it. */
  auditId(values: V): string;
  valuesOf(row: R): V;
  findByKeys(db: DbOrTx, values: readonly V[]): Promise<R[]>;
  /** Rules between rows and the rest of the register, on the register as it would be. */
  checkRows(db: DbOrTx, planned: readonly PlannedRow<V>[], columnOf: (field: string) => string): Promise<ImportRowError[]>;
  /** Writes the added and changed rows. */
  write(db: DbOrTx, rows: readonly PlannedRow<V>[]): Promise<void>;
  /** A batch of the register in its order, for the export. */
  batch(db: DbOrTx, division: string | undefined, after: R | null, limit: number): Promise<R[]>;
}

const curveKey = (v: { section: string; curveNumber: string; line: string }) => `${v.section}\u0000${v.curveNumber}\u0000${v.line}`;

const curveRegister: Register<CurveInput, CurveRow> = {
  kind: 'curves',
  entity: 'curve',
  schema: curveCreateSchema,
  required: CURVE_REQUIRED_FIELDS,
  keyFields: ['section', 'curveNumber', 'line'],
  keyOf: curveKey,
  describe: describeCurve,
  auditId: curveAuditId,
  valuesOf: curveValuesOf,
  findByKeys: (db, values) => findCurvesByKeys(db, values),

  async checkRows(db, planned, columnOf) {
    const errors: ImportRowError[] = [];
    // Within the file: an HKM code names one curve.
    const claimedBy = new Map<number, PlannedRow<CurveInput>>();
    for (const p of planned) {
      const code = p.values.hkmCode;
      if (code === null) continue;
      const first = claimedBy.get(code);
      if (first) {
        errors.push({ row: p.row, column: columnOf('hkmCode'), message: `HKM code ${code} is also given to ${describeCurve(first.values)} in row ${first.row}` });
      } else {
        claimedBy.set(code, p);
      }
    }
    // Against the register: a curve the file does not list keeps its code.
    const inFile = new Set(planned.map((p) => curveKey(p.values)));
    for (const holder of await findCurvesByHkmCodes(db, [...claimedBy.keys()])) {
      if (holder.hkmCode === null || inFile.has(curveKey(holder))) continue;
      const claimant = claimedBy.get(holder.hkmCode);
      if (claimant) {
        errors.push({
          row: claimant.row,
          column: columnOf('hkmCode'),
          message: `HKM code ${holder.hkmCode} is already used by ${describeCurve(holder)}, which this file does not change`,
        });
      }
    }
    return errors;
  },

  async write(db, rows) {
    // Codes may move between curves of the file (even swap): free the moving ones first.
    const moving = rows.flatMap((p) => (p.before && p.before.hkmCode !== null && p.before.hkmCode !== p.values.hkmCode ? [p.before] : []));
    if (moving.length > 0) {
      const stored = await findCurvesByKeys(db, moving);
      await clearHkmCodes(db, stored.map((c) => c.id));
    }
    await upsertCurves(db, rows.map((p) => p.values));
  },
  batch: curveBatch,
};

const stationKey = (v: { section: string; stationCode: string }) => `${v.section}\u0000${v.stationCode}`;

const stationRegister: Register<StationInput, StationRow> = {
  kind: 'stations',
  entity: 'station',
  schema: z.object(stationFields),
  required: STATION_REQUIRED_FIELDS,
  keyFields: ['section', 'stationCode'],
  keyOf: stationKey,
  describe: describeStation,
  auditId: stationAuditId,
  valuesOf: stationValuesOf,
  findByKeys: (db, values) => findStationsByKeys(db, values),
  checkRows: async () => [],
  write: (db, rows) => upsertStations(db, rows.map((p) => p.values)),
  batch: stationBatch,
};

export const REGISTERS = { curves: curveRegister, stations: stationRegister } as const;
