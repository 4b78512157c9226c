/**
 * The scale option of the demo seed: `npm run bench:data -- --records 100000 [--curves 10000]`
 * adds generated inspection records (and curves) at the size of a railway zone to a database,
 * PostgreSQL or an embedded PGlite data dir that no server holds open (see bench/README.md).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { DEFAULT_PHOTOS, DEFAULT_SEED, DEFAULT_YEARS } from './generate.js';
import { describeSummary, loadScaledData } from './load.js';

const DEFAULT_RECORDS = 100_000;

const USAGE = `usage: npm run bench:data -- [--records 100000] [--curves 10000] [--curve-records 10000] [--database-url postgres://...]
                          [--data-dir DIR] [--seed N] [--years 3] [--photos 20] [--demo]

  --records       inspection records to add (default 100000)
  --curves        top the curve register up to this many curves (default: leave it)
  --curve-records top the machine rollout sheet up to this many records, one per curve (default: leave it)
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
        records: { type: 'string' },
        curves: { type: 'string' },
        'curve-records': { type: 'string' },
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
  let curveRecords: number | undefined;
  let seed: number;
  let photos: number;
  let years: number;
  try {
    count = wholeNumber('records', values.records, DEFAULT_RECORDS) ?? DEFAULT_RECORDS;
    curves = wholeNumber('curves', values.curves, undefined);
    curveRecords = wholeNumber('curve-records', values['curve-records'], undefined);
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
  const summary = await loadScaledData({
    databaseUrl,
    dataDir,
    count,
    curves,
    curveRecords,
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
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  cli(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(`bench:data: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(1);
    },
  );
}
