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
 * CLI (server/db/seed/scale/cli.ts, see bench/README.md):
 *   npm run bench:data -- --records 100000 [--curves 10000] --database-url postgres://... --data-dir DIR
 *   npm run bench:data -- --records 100000 --data-dir DIR [--demo]        (PGlite; the server must be stopped)
 */
import { performance } from 'node:perf_hooks';
import { DIVISIONS } from '../../../../common/constants.js';
import { addDays, istInstant } from '../calendar.js';
import { mastNumber } from '../curves.js';
import { serviceFindings, uniqueRecordId } from '../inspections.js';
import { Random } from '../random.js';
import { DEMO_USERS } from '../users.js';
import { CURVE_COLUMNS, INSPECTION_COLUMNS, insertChunk, type CurveRef, type InspectionValues, type SqlClient } from './columns.js';
import { DIVISION_WEIGHTS, readCurves, topUpCurves } from './curves.js';
import { storeBenchPhotos, type BenchPhoto } from './photos.js';

/** The default stream seed: any fixed number; another gives other (equally realistic) data. */
export const DEFAULT_SEED = 0x484b_4d10;
const DEFAULT_CHUNK = 5_000;
export const DEFAULT_YEARS = 3;
export const DEFAULT_PHOTOS = 20;
const TECHNICIANS = 40;

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

interface Technician {
  employeeId: string;
  name: string;
  division: string;
  /** The division's lead technician gets more visits than the others. */
  weight: number;
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
