/**
 * The rows the scale seed writes, and how: each table's columns with their SQL array types in
 * the order of the `unnest()` arrays, so one INSERT carries a chunk of thousands of rows.
 */

/** The part of a database client the generator needs: pg.Client and PGlite both fit behind it. */
export interface SqlClient {
  query<R>(text: string, params?: unknown[]): Promise<R[]>;
}

export interface CurveRef {
  divisionRailway: string;
  section: string;
  curveNumber: string;
  line: string;
  station1: string | null;
  station2: string | null;
  sse: string | null;
  kmFrom: number | null;
  metFrom: number | null;
  kmTo: number | null;
  metTo: number | null;
}


export interface InspectionValues {
  recordId: string;
  clientSubmissionId: string;
  date: string;
  type: 'Service' | 'CoF';
  divisionRailway: string;
  section: string;
  curveNumber: string;
  line: string;
  technicianId: string;
  technicianName: string;
  cofValue: string | null;
  location: string | null;
  station1: string | null;
  station2: string | null;
  km: string | null;
  pole1: string | null;
  pole2: string | null;
  railwayEngineer: string | null;
  imageUrl: string;
  fileName: string;
  imageHash: string;
  imageSizeBytes: number;
  imageWidth: number;
  imageHeight: number;
  serviceUpdate: string | null;
  partCategory: string | null;
  partItemName: string | null;
  isMachineWorking: boolean | null;
  greaseDepth: string | null;
  latitude: number | null;
  longitude: number | null;
  locationAccuracyM: number | null;
  submittedAt: string;
}

/** Column, SQL array type, value: the order of the unnest() arrays. */
export const INSPECTION_COLUMNS: ReadonlyArray<readonly [string, string, (r: InspectionValues) => unknown]> = [
  ['record_id', 'varchar', (r) => r.recordId],
  ['client_submission_id', 'uuid', (r) => r.clientSubmissionId],
  ['date', 'date', (r) => r.date],
  ['type', 'varchar', (r) => r.type],
  ['division_railway', 'varchar', (r) => r.divisionRailway],
  ['section', 'varchar', (r) => r.section],
  ['curve_number', 'varchar', (r) => r.curveNumber],
  ['line', 'varchar', (r) => r.line],
  ['technician_id', 'varchar', (r) => r.technicianId],
  ['technician_name', 'varchar', (r) => r.technicianName],
  ['cof_value', 'numeric', (r) => r.cofValue],
  ['location', 'varchar', (r) => r.location],
  ['station1', 'varchar', (r) => r.station1],
  ['station2', 'varchar', (r) => r.station2],
  ['km', 'varchar', (r) => r.km],
  ['pole1', 'varchar', (r) => r.pole1],
  ['pole2', 'varchar', (r) => r.pole2],
  ['railway_engineer', 'varchar', (r) => r.railwayEngineer],
  ['image_url', 'text', (r) => r.imageUrl],
  ['file_name', 'varchar', (r) => r.fileName],
  ['image_hash', 'varchar', (r) => r.imageHash],
  ['image_size_bytes', 'int4', (r) => r.imageSizeBytes],
  ['image_width', 'int4', (r) => r.imageWidth],
  ['image_height', 'int4', (r) => r.imageHeight],
  ['service_update', 'varchar', (r) => r.serviceUpdate],
  ['part_category', 'varchar', (r) => r.partCategory],
  ['part_item_name', 'varchar', (r) => r.partItemName],
  ['is_machine_working', 'bool', (r) => r.isMachineWorking],
  ['grease_depth', 'numeric', (r) => r.greaseDepth],
  ['latitude', 'float8', (r) => r.latitude],
  ['longitude', 'float8', (r) => r.longitude],
  ['location_accuracy_m', 'float8', (r) => r.locationAccuracyM],
  ['submitted_at', 'timestamptz', (r) => r.submittedAt],
];

export interface CurveValues {
  no: number;
  hkmCode: number;
  divisionRailway: string;
  section: string;
  curveNumber: string;
  line: string;
  kmFrom: number;
  metFrom: number;
  kmTo: number;
  metTo: number;
  length: number;
  station1: string | null;
  station2: string | null;
  degree: string;
  den: string | null;
  aen: string | null;
  sse: string | null;
}

export const CURVE_COLUMNS: ReadonlyArray<readonly [string, string, (r: CurveValues) => unknown]> = [
  ['no', 'int4', (r) => r.no],
  ['hkm_code', 'int4', (r) => r.hkmCode],
  ['division_railway', 'varchar', (r) => r.divisionRailway],
  ['section', 'varchar', (r) => r.section],
  ['curve_number', 'varchar', (r) => r.curveNumber],
  ['line', 'varchar', (r) => r.line],
  ['km_from', 'int4', (r) => r.kmFrom],
  ['met_from', 'int4', (r) => r.metFrom],
  ['km_to', 'int4', (r) => r.kmTo],
  ['met_to', 'int4', (r) => r.metTo],
  ['length', 'int4', (r) => r.length],
  ['station1', 'varchar', (r) => r.station1],
  ['station2', 'varchar', (r) => r.station2],
  ['degree', 'numeric', (r) => r.degree],
  ['den', 'varchar', (r) => r.den],
  ['aen', 'varchar', (r) => r.aen],
  ['sse', 'varchar', (r) => r.sse],
];

export async function insertChunk<T>(
  client: SqlClient,
  table: string,
  columns: ReadonlyArray<readonly [string, string, (r: T) => unknown]>,
  rows: readonly T[],
): Promise<void> {
  if (rows.length === 0) return;
  const names = columns.map(([name]) => name).join(', ');
  const arrays = columns.map(([, type], i) => `$${i + 1}::${type}[]`).join(', ');
  const params = columns.map(([, , get]) => rows.map(get));
  await client.query(`insert into ${table} (${names}) select * from unnest(${arrays})`, params);
}
