/**
 * The columns of the register's sheets, in the order the export writes them. Import matches a
 * file's headers against the spec's field names with case, spaces and punctuation ignored, so
 * 'HKM Code', 'hkmCode' and 'hkm_code' are one column, and so are an export's own headers,
 * which carry the Hindi first ("कर्व नंबर / Curve Number"): their English half is matched.
 */
import { englishOf } from '../reports/index.js';
import type { CurveField, RegisterKind, StationField } from '../../../common/schemas/register.js';

export interface RegisterColumn<F extends string> {
  field: F;
  header: string;
  /** Characters of the column's width in the exported sheet. */
  width: number;
  /** Written as a number; every other column is text (format '@', so a spreadsheet keeps it text). */
  numeric?: boolean;
}

export const CURVE_COLUMNS: readonly RegisterColumn<CurveField>[] = [
  { field: 'no', header: 'No', width: 7, numeric: true },
  { field: 'hkmCode', header: 'HKM Code', width: 11, numeric: true },
  { field: 'divisionRailway', header: 'Division/Railway', width: 17 },
  { field: 'section', header: 'Section', width: 16 },
  { field: 'curveNumber', header: 'Curve Number', width: 16 },
  { field: 'line', header: 'Line', width: 8 },
  { field: 'kmFrom', header: 'Km From', width: 9, numeric: true },
  { field: 'metFrom', header: 'Met From', width: 9, numeric: true },
  { field: 'kmTo', header: 'Km To', width: 9, numeric: true },
  { field: 'metTo', header: 'Met To', width: 9, numeric: true },
  { field: 'length', header: 'Length', width: 9, numeric: true },
  { field: 'station1', header: 'Station 1', width: 18 },
  { field: 'station2', header: 'Station 2', width: 18 },
  // Text: numeric(5,2) as the database writes it ("0.50").
  { field: 'degree', header: 'Degree', width: 9 },
  { field: 'den', header: 'DEN', width: 22 },
  { field: 'aen', header: 'AEN', width: 16 },
  { field: 'sse', header: 'SSE', width: 20 },
  { field: 'comments', header: 'Comments', width: 40 },
];

export const STATION_COLUMNS: readonly RegisterColumn<StationField>[] = [
  { field: 'no', header: 'No', width: 7, numeric: true },
  { field: 'stationName', header: 'Station Name', width: 24 },
  { field: 'stationCode', header: 'Station Code', width: 13 },
  { field: 'section', header: 'Section', width: 16 },
  { field: 'divisionRailway', header: 'Division/Railway', width: 17 },
];

export const COLUMNS_OF: { curves: typeof CURVE_COLUMNS; stations: typeof STATION_COLUMNS } = {
  curves: CURVE_COLUMNS,
  stations: STATION_COLUMNS,
};

/** Other names officers' sheets use for a field. */
const ALIASES: Record<RegisterKind, Record<string, string>> = {
  curves: { division: 'divisionRailway', railway: 'divisionRailway', curveno: 'curveNumber', hkm: 'hkmCode' },
  stations: { division: 'divisionRailway', railway: 'divisionRailway', name: 'stationName', code: 'stationCode' },
};

const normalizeHeader = (header: string) => header.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');

/** The field each header names, by the header's index; null for a header that names none. */
export function matchHeaders(kind: RegisterKind, header: readonly string[]): (string | null)[] {
  const byName = new Map<string, string>();
  for (const column of COLUMNS_OF[kind]) {
    byName.set(normalizeHeader(column.field), column.field);
    byName.set(normalizeHeader(column.header), column.field);
  }
  for (const [alias, field] of Object.entries(ALIASES[kind])) byName.set(alias, field);
  const fieldOf = (h: string) => byName.get(normalizeHeader(h)) ?? byName.get(normalizeHeader(englishOf(h))) ?? null;
  return header.map(fieldOf);
}
