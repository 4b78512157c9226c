import type { Curve } from '../../../common/schemas/curve.js';
import type { CurveInput } from '../../../common/schemas/register.js';
import type { CurveRow } from '../../db/schema.js';

/** A curve row as the API shows it (common/schemas/curve.ts). */
export function presentCurve(row: CurveRow): Curve {
  return { ...row, createdAt: row.createdAt.toISOString(), updatedAt: row.updatedAt.toISOString() };
}

/** "curve 12 (Up) in section RTM-NAD": how messages name a curve. */
export function describeCurve(key: { section: string; curveNumber: string; line: string }): string {
  return `curve ${key.curveNumber} (${key.line}) in section ${key.section}`;
}

/** The writable fields of a stored curve, in the shape the add and edit calls take. */
export function curveValuesOf(row: CurveRow): CurveInput {
  return {
    no: row.no,
    hkmCode: row.hkmCode,
    divisionRailway: row.divisionRailway as CurveInput['divisionRailway'],
    section: row.section,
    curveNumber: row.curveNumber,
    line: row.line as CurveInput['line'],
    kmFrom: row.kmFrom,
    metFrom: row.metFrom,
    kmTo: row.kmTo,
    metTo: row.metTo,
    length: row.length,
    station1: row.station1,
    station2: row.station2,
    degree: row.degree,
    den: row.den,
    aen: row.aen,
    sse: row.sse,
    comments: row.comments,
  };
}

/** How the audit trail names a curve: its key, 'RTM-NAD/660/10-661/7/Up'. */
export const curveAuditId = (key: { section: string; curveNumber: string; line: string }) => `${key.section}/${key.curveNumber}/${key.line}`;
