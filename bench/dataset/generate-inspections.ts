/**
 * Bench data at the scale of a railway zone: adds N inspection records (default 100,000) and
 * optionally tops the curve register up to a target (e.g. 10,000 curves), on PostgreSQL or on
 * an embedded PGlite data dir that no server holds open.
 *
 * The data is realistic and the same on every run from the same starting database (a seeded
 * PRNG, never Math.random): the five divisions with uneven weights, sections and curves taken
 * from the curve register, technicians TEC2001..TEC2040 tied to divisions, visit dates over
 * about three years (more in recent months, as the roll-out grew), submitted_at a few minutes
 * (sometimes hours or days) after the visit, Service and CoF records with the columns the
 * upload service fills for each type, record IDs in the app's `INS-YYYYMMDD-XXXXXX` form,
 * and photos: a handful of real JPEGs written into DATA_DIR/blobs that the rows point at
 * (so thumbnails, image downloads and zips work), with matching size, width and height.
 *
 * Rows go in with one `INSERT ... SELECT FROM unnest($1::type[], ...)` per chunk of 5,000,
 * all inside one transaction, then VACUUM (ANALYZE).
 *
 * CLI (see bench/README.md):
 *   npm run bench:data -- --count 100000 [--curves 10000] --database-url postgres://... --data-dir DIR
 *   npm run bench:data -- --count 100000 --data-dir DIR [--demo]        (PGlite; the server must be stopped)
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { DIVISIONS } from '../../common/constants.js';
import { dateInTimeZone } from '../../common/rules/dates.js';
import { openDatabase, type Database } from '../../server/db/client.js';
import { lockDataDir } from '../../server/db/data-dir-lock.js';
import { addDays, istInstant } from '../../server/db/seed/calendar.js';
import { mastNumber } from '../../server/db/seed/curves.js';
import { serviceFindings, uniqueRecordId } from '../../server/db/seed/inspections.js';
import { seedDemoData } from '../../server/db/seed/index.js';
import { Random } from '../../server/db/seed/random.js';
import { DEMO_USERS } from '../../server/db/seed/users.js';
import { DiskBlobStore } from '../../server/storage/disk-blob-store.js';
import { storeBenchPhotos, type BenchPhoto } from './photos.js';

/** The default stream seed: any fixed number; another gives other (equally realistic) data. */
export const DEFAULT_SEED = 0x484b_4d10;
const DEFAULT_CHUNK = 5_000;
const DEFAULT_YEARS = 3;
const DEFAULT_PHOTOS = 20;
const TECHNICIANS = 40;
const APP_TIME_ZONE_DEFAULT = 'Asia/Kolkata';

/** The part of a database client the generator needs: pg.Client and PGlite both fit behind it. */
export interface SqlClient {
  query<R>(text: string, params?: unknown[]): Promise<R[]>;
}

export interface GenerateOptions {
  /** Inspection records to add. */
  count: number;
  /** Top the curve register up to this many curves (nothing happens if it already has as many). */
  curves?: number | undefined;
  seed?: number | undefined;
  /** The railway's today, YYYY-MM-DD: the newest visit date. */
  today: string;
  /** Visit dates spread over this many years back from today (default 3). */
  years?: number | undefined;
  /** Distinct photos (default 20). */
  photos?: number | undefined;
  /** The server's DATA_DIR/blobs. */
  blobsDir: string;
  /** Rows per INSERT (default 5,000). */
  chunkSize?: number | undefined;
  log?: ((message: string) => void) | undefined;
}

export interface GenerateSummary {
  inspectionsAdded: number;
  inspectionsTotal: number;
  curvesAdded: number;
  curvesTotal: number;
  photos: BenchPhoto[];
  /** Records added per division. */
  byDivision: Record<string, number>;
  byType: Record<string, number>;
  /** The oldest and newest visit date added. */
  dateRange: [string, string] | null;
  /** analyze: VACUUM (ANALYZE) of the two tables. */
  seconds: { photos: number; curves: number; inspections: number; analyze: number; total: number };
}

/* ------------------------------------------------------------------------------------------ */
/* The data                                                                                     */
/* ------------------------------------------------------------------------------------------ */

/** How the records split between divisions: RTM has most machines, JBP the fewest. */
const DIVISION_WEIGHTS: Record<string, number> = {
  'RTM/WR': 34,
  'BRC/WR': 24,
  'FZR/NR': 18,
  'NDLS/NR': 14,
  'JBP/WCR': 10,
};

/** Rough centre of each division, for the GPS fix the phone attaches. */
const DIVISION_CENTRES: Record<string, readonly [number, number]> = {
  'RTM/WR': [23.33, 75.04],
  'FZR/NR': [30.92, 74.6],
  'BRC/WR': [22.31, 73.18],
  'NDLS/NR': [28.64, 77.22],
  'JBP/WCR': [23.17, 79.93],
};

const FIRST_NAMES = [
  'Rajesh', 'Suresh', 'Mahesh', 'Vikram', 'Deepak', 'Anil', 'Sunil', 'Manoj', 'Pankaj', 'Rakesh',
  'Harish', 'Naresh', 'Ashok', 'Vinod', 'Ramesh', 'Sanjay', 'Ajay', 'Vijay', 'Mukesh', 'Dinesh',
  'Jagdish', 'Kuldeep', 'Baldev', 'Arvind', 'Pradeep', 'Nitin', 'Yogesh', 'Bharat', 'Gopal', 'Hemant',
];
const LAST_NAMES = [
  'Yadav', 'Chouhan', 'Rathore', 'Verma', 'Gupta', 'Solanki', 'Parmar', 'Joshi', 'Mishra', 'Dubey',
  'Saini', 'Gill', 'Dhillon', 'Bhatt', 'Desai', 'Thakur', 'Pandey', 'Patel', 'Malviya', 'Shukla',
];

interface CurveRef {
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

interface Technician {
  employeeId: string;
  name: string;
  division: string;
  /** The division's lead technician gets more visits than the others. */
  weight: number;
}

interface InspectionValues {
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
const INSPECTION_COLUMNS: ReadonlyArray<readonly [string, string, (r: InspectionValues) => unknown]> = [
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

interface CurveValues {
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

const CURVE_COLUMNS: ReadonlyArray<readonly [string, string, (r: CurveValues) => unknown]> = [
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

async function insertChunk<T>(
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

function buildTechnicians(): Technician[] {
  const known = new Map(DEMO_USERS.filter((u) => u.role === 'Technician').map((u) => [u.employeeId, u.name]));
  const rng = new Random(DEFAULT_SEED ^ 0x7ec);
  const technicians: Technician[] = [];
  for (let n = 1; n <= TECHNICIANS; n++) {
    const employeeId = `TEC${2000 + n}`;
    // TEC2001..TEC2005 are the demo's division leads; the rest are spread round the divisions.
    const division = DIVISIONS[(n - 1) % DIVISIONS.length] ?? DIVISIONS[0];
    const name = known.get(employeeId) ?? `${rng.pick(FIRST_NAMES)} ${rng.pick(LAST_NAMES)}`;
    technicians.push({ employeeId, name, division, weight: n <= DIVISIONS.length ? 4 : 1 });
  }
  return technicians;
}

function uuidFrom(rng: Random): string {
  const hex: string[] = [];
  for (let i = 0; i < 4; i++) hex.push(Math.floor(rng.next() * 4_294_967_296).toString(16).padStart(8, '0'));
  const h = hex.join('');
  const variant = ((parseInt(h[16] ?? '0', 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/* ------------------------------------------------------------------------------------------ */
/* Curves                                                                                       */
/* ------------------------------------------------------------------------------------------ */

async function readCurves(client: SqlClient): Promise<CurveRef[]> {
  const rows = await client.query<{
    division_railway: string;
    section: string;
    curve_number: string;
    line: string;
    station1: string | null;
    station2: string | null;
    sse: string | null;
    km_from: number | null;
    met_from: number | null;
    km_to: number | null;
    met_to: number | null;
  }>(
    `select division_railway, section, curve_number, line, station1, station2, sse, km_from, met_from, km_to, met_to
       from consolidated_curve_details order by id`,
  );
  return rows.map((r) => ({
    divisionRailway: r.division_railway,
    section: r.section,
    curveNumber: r.curve_number,
    line: r.line,
    station1: r.station1,
    station2: r.station2,
    sse: r.sse,
    kmFrom: r.km_from,
    metFrom: r.met_from,
    kmTo: r.km_to,
    metTo: r.met_to,
  }));
}

interface SectionTemplate {
  division: string;
  section: string;
  stationPairs: Array<[string | null, string | null]>;
  sses: Array<string | null>;
  den: string | null;
  aen: string | null;
  single: boolean;
  minKm: number;
  maxKm: number;
}

async function topUpCurves(client: SqlClient, existing: readonly CurveRef[], target: number, rng: Random): Promise<CurveValues[]> {
  const need = target - existing.length;
  if (need <= 0) return [];
  const meta = await client.query<{ den: string | null; aen: string | null; section: string; max_code: number | null; max_no: number | null }>(
    `select c.section, min(c.den) as den, min(c.aen) as aen,
            (select max(hkm_code) from consolidated_curve_details) as max_code,
            (select max(no) from consolidated_curve_details) as max_no
       from consolidated_curve_details c group by c.section`,
  );
  const bySection = new Map<string, SectionTemplate>();
  for (const curve of existing) {
    let t = bySection.get(curve.section);
    if (!t) {
      const m = meta.find((x) => x.section === curve.section);
      t = {
        division: curve.divisionRailway,
        section: curve.section,
        stationPairs: [],
        sses: [],
        den: m?.den ?? null,
        aen: m?.aen ?? null,
        single: false,
        minKm: Number.POSITIVE_INFINITY,
        maxKm: 0,
      };
      bySection.set(curve.section, t);
    }
    t.stationPairs.push([curve.station1, curve.station2]);
    t.sses.push(curve.sse);
    if (curve.line === 'Single') t.single = true;
    if (curve.kmFrom !== null) {
      t.minKm = Math.min(t.minKm, curve.kmFrom);
      t.maxKm = Math.max(t.maxKm, curve.kmTo ?? curve.kmFrom);
    }
  }
  const sectionsByDivision = new Map<string, SectionTemplate[]>();
  for (const t of bySection.values()) {
    if (!Number.isFinite(t.minKm)) [t.minKm, t.maxKm] = [0, 100];
    const list = sectionsByDivision.get(t.division) ?? [];
    list.push(t);
    sectionsByDivision.set(t.division, list);
  }
  const divisions = [...sectionsByDivision.keys()];
  const taken = new Set(existing.map((c) => `${c.section}|${c.curveNumber}|${c.line}`));
  const counters = new Map<string, number>();
  let hkmCode = Math.max(0, ...meta.map((m) => Number(m.max_code ?? 0)));
  let no = Math.max(0, ...meta.map((m) => Number(m.max_no ?? 0)));
  const rows: CurveValues[] = [];
  while (rows.length < need) {
    const division = rng.weighted(divisions.map((d) => [d, DIVISION_WEIGHTS[d] ?? 10] as const));
    const template = rng.pick(sectionsByDivision.get(division) ?? []);
    // New sites are numbered on from the register's own numbers, as a later survey would.
    const n = (counters.get(template.section) ?? 100) + 1;
    counters.set(template.section, n);
    const curveNumber = String(n);
    const length = rng.int(15, 90) * 10;
    const start = rng.int(template.minKm * 1000, Math.max(template.minKm * 1000, template.maxKm * 1000));
    const lines = template.single ? ['Single'] : rng.chance(0.82) ? ['Up', 'Down'] : [rng.pick(['Up', 'Down'])];
    const [station1, station2] = rng.pick(template.stationPairs);
    const sse = rng.pick(template.sses);
    const degree = (Math.round(rng.float(0.5, 6) * 4) / 4).toFixed(2);
    for (const line of lines) {
      if (rows.length >= need) break;
      const key = `${template.section}|${curveNumber}|${line}`;
      if (taken.has(key)) continue;
      taken.add(key);
      const from = start + (line === 'Down' ? rng.int(-3, 3) * 5 : 0);
      const to = from + length;
      rows.push({
        no: ++no,
        hkmCode: ++hkmCode,
        divisionRailway: template.division,
        section: template.section,
        curveNumber,
        line,
        kmFrom: Math.floor(from / 1000),
        metFrom: from % 1000,
        kmTo: Math.floor(to / 1000),
        metTo: to % 1000,
        length,
        station1,
        station2,
        degree,
        den: template.den,
        aen: template.aen,
        sse,
      });
    }
  }
  return rows;
}

/* ------------------------------------------------------------------------------------------ */
/* The generator                                                                                */
/* ------------------------------------------------------------------------------------------ */

export async function generateInspections(client: SqlClient, options: GenerateOptions): Promise<GenerateSummary> {
  const log = options.log ?? (() => undefined);
  const seed = options.seed ?? DEFAULT_SEED;
  const chunkSize = options.chunkSize ?? DEFAULT_CHUNK;
  const days = Math.max(1, Math.round((options.years ?? DEFAULT_YEARS) * 365));
  if (!Number.isInteger(options.count) || options.count < 0) throw new Error(`count must be a whole number >= 0, got ${options.count}`);
  const started = performance.now();
  const seconds = { photos: 0, curves: 0, inspections: 0, analyze: 0, total: 0 };

  let mark = performance.now();
  const photos = await storeBenchPhotos({ blobsDir: options.blobsDir, count: options.photos ?? DEFAULT_PHOTOS, seed });
  seconds.photos = (performance.now() - mark) / 1000;
  const meanKb = photos.reduce((s, p) => s + p.sizeBytes, 0) / Math.max(1, photos.length) / 1024;
  log(`${photos.length} photos in ${options.blobsDir} (${meanKb.toFixed(0)} KB on average) in ${seconds.photos.toFixed(1)} s`);

  await client.query('begin');
  try {
    mark = performance.now();
    let curves = await readCurves(client);
    if (curves.length === 0) {
      throw new Error('the curve register is empty: seed the demo data (server with DEMO=1, or --demo) or load curves first');
    }
    let curvesAdded = 0;
    if (options.curves !== undefined && options.curves > curves.length) {
      const added = await topUpCurves(client, curves, options.curves, new Random(seed ^ 0xc0fe));
      for (let i = 0; i < added.length; i += chunkSize) await insertChunk(client, 'consolidated_curve_details', CURVE_COLUMNS, added.slice(i, i + chunkSize));
      curvesAdded = added.length;
      curves = await readCurves(client);
      seconds.curves = (performance.now() - mark) / 1000;
      log(`curves: added ${curvesAdded}, register now ${curves.length} (${seconds.curves.toFixed(1)} s)`);
    }

    mark = performance.now();
    const taken = new Set((await client.query<{ record_id: string }>('select record_id from inspection_logs')).map((r) => r.record_id));
    // A second run on the same database adds other rows (still deterministic): the stream
    // depends on how many records were there.
    const rng = new Random((seed + taken.size * 2_654_435_761) >>> 0);
    const technicians = buildTechnicians();
    const curvesByDivision = new Map<string, CurveRef[]>();
    for (const curve of curves) {
      const list = curvesByDivision.get(curve.divisionRailway) ?? [];
      list.push(curve);
      curvesByDivision.set(curve.divisionRailway, list);
    }
    // Some curves get far more visits than others (busy machines, complaints, easy access).
    for (const [division, list] of curvesByDivision) curvesByDivision.set(division, rng.sample(list, list.length));
    const divisions = [...curvesByDivision.keys()].map((d) => [d, DIVISION_WEIGHTS[d] ?? 5] as const);
    const techniciansByDivision = new Map<string, Technician[]>();
    for (const t of technicians) techniciansByDivision.set(t.division, [...(techniciansByDivision.get(t.division) ?? []), t]);

    const now = Date.now();
    const today = options.today;
    const byDivision: Record<string, number> = {};
    const byType: Record<string, number> = {};
    let oldest: string | null = null;
    let newest: string | null = null;
    let chunk: InspectionValues[] = [];
    for (let n = 0; n < options.count; n++) {
      const division = rng.weighted(divisions);
      const list = curvesByDivision.get(division) ?? [];
      const curve = list[Math.min(list.length - 1, Math.floor(list.length * rng.next() ** 1.6))];
      if (!curve) throw new Error(`no curve in ${division}`);
      const local = techniciansByDivision.get(division) ?? technicians;
      // Now and then a technician from another division covers for a colleague.
      const technician = rng.chance(0.04)
        ? rng.pick(technicians)
        : rng.weighted(local.map((t) => [t, t.weight] as const));

      // More visits in recent months: machines were commissioned over the years.
      let daysAgo = Math.min(days - 1, Math.floor(days * (1 - rng.next() ** 0.75)));
      const capturedAt = rng.int(8 * 60 + 30, 17 * 60 + 15);
      const roll = rng.next();
      const delay = roll < 0.85 ? rng.int(1, 12) : roll < 0.98 ? rng.int(40, 300) : rng.int(1_440, 4_320);
      let date = addDays(today, -daysAgo);
      let submittedAt = istInstant(date, capturedAt + delay);
      // Nothing is submitted in the future: today's late visits move to an earlier day.
      while (submittedAt.getTime() > now) {
        daysAgo += 1;
        date = addDays(today, -daysAgo);
        submittedAt = istInstant(date, capturedAt + delay);
      }

      const type = rng.chance(0.28) ? 'CoF' : 'Service';
      const recordId = uniqueRecordId(rng, date, taken);
      const photo = photos[Math.floor(rng.next() * photos.length)];
      if (!photo) throw new Error('no photos');
      const centre = DIVISION_CENTRES[division] ?? [23, 78];
      const hasFix = rng.chance(0.8);
      const row: InspectionValues = {
        recordId,
        clientSubmissionId: uuidFrom(rng),
        date,
        type,
        divisionRailway: curve.divisionRailway,
        section: curve.section,
        curveNumber: curve.curveNumber,
        line: curve.line,
        technicianId: technician.employeeId,
        technicianName: technician.name,
        cofValue: null,
        location: null,
        station1: curve.station1,
        station2: curve.station2,
        km: null,
        pole1: null,
        pole2: null,
        railwayEngineer: curve.sse && curve.sse !== 'SSE' ? curve.sse : null,
        imageUrl: `/api/inspections/${recordId}/image`,
        fileName: `inspection_${recordId}.jpg`,
        imageHash: photo.hash,
        imageSizeBytes: photo.sizeBytes,
        imageWidth: photo.width,
        imageHeight: photo.height,
        serviceUpdate: null,
        partCategory: null,
        partItemName: null,
        isMachineWorking: null,
        greaseDepth: null,
        latitude: hasFix ? Math.round((centre[0] + rng.float(-1.2, 1.2)) * 1e6) / 1e6 : null,
        longitude: hasFix ? Math.round((centre[1] + rng.float(-1.2, 1.2)) * 1e6) / 1e6 : null,
        locationAccuracyM: hasFix ? Math.round(rng.float(3, 35) * 10) / 10 : null,
        submittedAt: submittedAt.toISOString(),
      };
      if (type === 'CoF') {
        // As the upload service stores a CoF record: value, location, km and poles; no service fields.
        const cof = rng.chance(0.12) ? rng.float(0.35, 0.46) : rng.float(0.14, 0.32);
        row.cofValue = cof.toFixed(2);
        row.location = rng.pick(['Far End', 'Near End']);
        if (curve.kmFrom !== null && curve.metFrom !== null) {
          row.km = String(curve.kmFrom);
          row.pole1 = mastNumber(curve.kmFrom, curve.metFrom);
          row.pole2 = curve.kmTo !== null && curve.metTo !== null ? mastNumber(curve.kmTo, curve.metTo) : null;
        }
      } else {
        // A rare uninstall, as at the end of a curve's service life.
        Object.assign(row, serviceFindings(rng, rng.chance(0.3)));
      }
      byDivision[row.divisionRailway] = (byDivision[row.divisionRailway] ?? 0) + 1;
      byType[type] = (byType[type] ?? 0) + 1;
      if (oldest === null || date < oldest) oldest = date;
      if (newest === null || date > newest) newest = date;
      chunk.push(row);
      if (chunk.length >= chunkSize) {
        await insertChunk(client, 'inspection_logs', INSPECTION_COLUMNS, chunk);
        chunk = [];
        if ((n + 1) % (chunkSize * 4) === 0) log(`inspections: ${n + 1} of ${options.count}`);
      }
    }
    await insertChunk(client, 'inspection_logs', INSPECTION_COLUMNS, chunk);
    await client.query('commit');
    seconds.inspections = (performance.now() - mark) / 1000;
    log(`inspections: added ${options.count} in ${seconds.inspections.toFixed(1)} s`);

    mark = performance.now();
    // VACUUM as well as ANALYZE: a table that has been in use is vacuumed by autovacuum (its
    // visibility map set, so counts may be index-only scans); right after a bulk load it is not,
    // and whether autovacuum got there first would make runs differ.
    await client.query('vacuum (analyze) inspection_logs');
    await client.query('vacuum (analyze) consolidated_curve_details');
    seconds.analyze = (performance.now() - mark) / 1000;
    const [counts] = await client.query<{ inspections: number | string; curves: number | string }>(
      'select (select count(*) from inspection_logs) as inspections, (select count(*) from consolidated_curve_details) as curves',
    );
    seconds.total = (performance.now() - started) / 1000;
    return {
      inspectionsAdded: options.count,
      inspectionsTotal: Number(counts?.inspections ?? 0),
      curvesAdded,
      curvesTotal: Number(counts?.curves ?? 0),
      photos,
      byDivision,
      byType,
      dateRange: oldest && newest ? [oldest, newest] : null,
      seconds,
    };
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  }
}

/* ------------------------------------------------------------------------------------------ */
/* Opening a database                                                                           */
/* ------------------------------------------------------------------------------------------ */

export interface Target {
  kind: 'postgres' | 'pglite';
  /** The app's own database handle (migrations, demo seed). */
  database: Database;
  client: SqlClient;
  /** Runs a script of several statements (no parameters). */
  exec(sql: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * Opens the app's database as the server would and applies its migrations: PostgreSQL given a
 * URL, else the embedded PGlite under dataDir/pglite (which no server may hold open).
 */
export async function openTarget(options: { databaseUrl?: string | undefined; dataDir: string }): Promise<Target> {
  if (options.databaseUrl) {
    const database = await openDatabase({ databaseUrl: options.databaseUrl, poolSize: 2 });
    await database.migrate();
    const raw = new pg.Client({ connectionString: options.databaseUrl });
    await raw.connect();
    return {
      kind: 'postgres',
      database,
      client: { query: async <R>(text: string, params?: unknown[]) => (await raw.query(text, params)).rows as R[] },
      async exec(sql) {
        await raw.query(sql);
      },
      async close() {
        await raw.end();
        await database.close();
      },
    };
  }
  const dir = path.join(options.dataDir, 'pglite');
  mkdirSync(dir, { recursive: true });
  const unlock = lockDataDir(path.join(options.dataDir, 'pglite.lock'));
  try {
    const pglite = await PGlite.create(dir);
    const database = await openDatabase({ pglite });
    await database.migrate();
    return {
      kind: 'pglite',
      database,
      client: { query: async <R>(text: string, params?: unknown[]) => (await pglite.query<R>(text, params)).rows },
      async exec(sql) {
        await pglite.exec(sql);
      },
      async close() {
        await database.close();
        unlock();
      },
    };
  } catch (error) {
    unlock();
    throw error;
  }
}

export interface LoadOptions extends Omit<GenerateOptions, 'blobsDir' | 'today'> {
  databaseUrl?: string | undefined;
  dataDir: string;
  /** Seed the demo data first (sign-ins, curves, stations) if the database has no curves. */
  demo?: boolean;
  /** The railway's time zone for "today" (default APP_TIMEZONE or Asia/Kolkata). */
  timeZone?: string | undefined;
}

/** Migrate, optionally seed the demo, generate: what the CLI and the bench runner do. */
export async function loadBenchData(options: LoadOptions): Promise<GenerateSummary & { kind: 'postgres' | 'pglite' }> {
  const target = await openTarget(options);
  try {
    const today = dateInTimeZone(new Date(), options.timeZone ?? APP_TIME_ZONE_DEFAULT);
    const blobsDir = path.join(options.dataDir, 'blobs');
    if (options.demo) await seedDemoData(target.database.db, new DiskBlobStore(blobsDir), { today });
    const summary = await generateInspections(target.client, { ...options, today, blobsDir });
    return { ...summary, kind: target.kind };
  } finally {
    await target.close();
  }
}

/* ------------------------------------------------------------------------------------------ */
/* CLI                                                                                          */
/* ------------------------------------------------------------------------------------------ */

const USAGE = `usage: npm run bench:data -- [--count 100000] [--curves 10000] [--database-url postgres://...] [--data-dir DIR]
                          [--seed N] [--years 3] [--photos 20] [--demo]

  --count         inspection records to add (default 100000)
  --curves        top the curve register up to this many curves (default: leave it)
  --database-url  PostgreSQL (default: DATABASE_URL; unset = the embedded PGlite under --data-dir,
                  which no running server may hold open)
  --data-dir      the server's DATA_DIR: photos go to DIR/blobs (default: DATA_DIR or ./data)
  --seed          PRNG seed (default ${DEFAULT_SEED})
  --years         spread visit dates over this many years up to today (default ${DEFAULT_YEARS})
  --photos        distinct photos to write (default ${DEFAULT_PHOTOS})
  --demo          seed the demo data first when the database has no curves (needed on a fresh one)`;

function wholeNumber(name: string, raw: string | undefined, fallback: number | undefined): number | undefined {
  if (raw === undefined) return fallback;
  const value = Number(raw.replaceAll('_', ''));
  if (!Number.isInteger(value) || value < 0) throw new Error(`--${name} must be a whole number >= 0, got '${raw}'`);
  return value;
}

async function cli(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: {
        count: { type: 'string' },
        curves: { type: 'string' },
        'database-url': { type: 'string' },
        'data-dir': { type: 'string' },
        seed: { type: 'string' },
        years: { type: 'string' },
        photos: { type: 'string' },
        demo: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    });
  } catch (error) {
    console.error(`bench:data: ${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
    return 2;
  }
  const { values } = parsed;
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  let count: number;
  let curves: number | undefined;
  let seed: number;
  let photos: number;
  let years: number;
  try {
    count = wholeNumber('count', values.count, 100_000) ?? 100_000;
    curves = wholeNumber('curves', values.curves, undefined);
    seed = wholeNumber('seed', values.seed, DEFAULT_SEED) ?? DEFAULT_SEED;
    photos = Math.max(1, wholeNumber('photos', values.photos, DEFAULT_PHOTOS) ?? DEFAULT_PHOTOS);
    years = Number(values.years ?? DEFAULT_YEARS);
    if (!Number.isFinite(years) || years <= 0) throw new Error(`--years must be a number > 0, got '${values.years}'`);
  } catch (error) {
    console.error(`bench:data: ${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
    return 2;
  }
  const databaseUrl = values['database-url'] ?? (process.env.DATABASE_URL?.trim() || undefined);
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    console.error('bench:data: --database-url must start with postgres:// or postgresql://');
    return 2;
  }
  const dataDir = path.resolve(values['data-dir'] ?? (process.env.DATA_DIR?.trim() || './data'));
  const log = (message: string) => process.stderr.write(`[bench:data] ${message}\n`);
  log(`${databaseUrl ? `PostgreSQL ${redact(databaseUrl)}` : `PGlite in ${path.join(dataDir, 'pglite')}`}; photos in ${path.join(dataDir, 'blobs')}`);
  const summary = await loadBenchData({
    databaseUrl,
    dataDir,
    count,
    curves,
    seed,
    years,
    photos,
    demo: values.demo ?? false,
    timeZone: process.env.APP_TIMEZONE?.trim() || undefined,
    log,
  });
  console.log(describeSummary(summary));
  return 0;
}

function redact(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'postgres://...';
  }
}

export function describeSummary(summary: GenerateSummary): string {
  const divisions = Object.entries(summary.byDivision)
    .sort((a, b) => b[1] - a[1])
    .map(([d, n]) => `${d} ${n}`)
    .join(', ');
  const types = Object.entries(summary.byType)
    .map(([t, n]) => `${t} ${n}`)
    .join(', ');
  return [
    `added ${summary.inspectionsAdded} inspection records (${types}; ${divisions}), dates ${summary.dateRange?.join(' .. ') ?? '-'}`,
    `inspection_logs now ${summary.inspectionsTotal} rows; consolidated_curve_details ${summary.curvesTotal} rows (${summary.curvesAdded} added)`,
    `${summary.photos.length} photos; seconds: photos ${summary.seconds.photos.toFixed(1)}, curves ${summary.seconds.curves.toFixed(1)}, ` +
      `inspections ${summary.seconds.inspections.toFixed(1)}, analyze ${summary.seconds.analyze.toFixed(1)}, total ${summary.seconds.total.toFixed(1)}`,
  ].join('\n');
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  cli(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(`bench:data: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(1);
    },
  );
}
