/**
 * Starts the bare routes (./server.ts) in a process of their own beside the server: the read
 * baseline on the server's PostgreSQL database or an in-memory PGlite copy, the upload baseline
 * on a scratch folder of the same disk, the zip baseline over the records' photo files. A
 * scenario puts the same load or work on the bare route as on the product and prints the ratio.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { dateInTimeZone } from '../../common/rules/dates.js';
import { forkChild } from '../lib/child.js';
import { dirUsage, type DirUsage } from '../lib/process-stats.js';
import { curvePage } from '../lib/register.js';
import { PROJECT_ROOT } from '../lib/server.js';
import type { ScenarioContext } from '../lib/types.js';
import { generatedDataEnv } from './database.js';

export const BARE_PAGE = 50;
export const BARE_UPLOAD_PATH = '/upload';
export const BARE_ZIP_PATH = '/zip';

/** The register's columns a copy is made of (all but id and the timestamps), snake_case as in SQL. */
export const COPIED_CURVE_COLUMNS = [
  'no', 'hkm_code', 'division_railway', 'section', 'curve_number', 'line', 'km_from', 'met_from', 'km_to', 'met_to',
  'length', 'station1', 'station2', 'degree', 'den', 'aen', 'sse', 'comments',
] as const;

/** What the read routes' in-memory PGlite holds (PostgreSQL: they read the server's database whatever this says). */
export type BareData = 'curves' | 'records' | 'user' | 'none';

export type BareMessage = { type: 'ready'; port: number; note: string } | { type: 'failed'; message: string };
export interface CurvesMessage {
  type: 'curves';
  /** Keyed by COPIED_CURVE_COLUMNS. */
  rows: Array<Record<string, unknown>>;
}
export interface ZipPhoto {
  path: string;
  name: string;
  size: number;
}
export interface ZipFilesMessage {
  type: 'files';
  files: Record<string, ZipPhoto>;
}

const ENTRY = path.join(PROJECT_ROOT, 'bench', 'bare', 'server.ts');
/** GET /api/consolidated-curves's largest page. */
const COPY_PAGE = 5000;
/** The railway's calendar, as the runner's scale seed uses it. */
const APP_TIME_ZONE = process.env.APP_TIMEZONE?.trim() || 'Asia/Kolkata';

export interface BareServer {
  baseUrl: string;
  pid: number;
  /** What it reads from, for the notes. */
  where: string;
  stop(): Promise<void>;
}

/** Forks the bare routes of `kind`, sends `first` (data they wait for) and waits for them to listen. */
async function startBare(kind: string, env: Record<string, string>, first?: () => Promise<unknown>, timeoutMs = 60_000): Promise<BareServer> {
  const child = forkChild<BareMessage>(ENTRY, { ...env, BARE_KIND: kind });
  try {
    if (first) child.send(await first());
    const message = await child.next(timeoutMs);
    if (message.type !== 'ready') throw new Error(`the bare ${kind} server failed: ${message.message}`);
    return { baseUrl: `http://127.0.0.1:${message.port}`, pid: child.pid, where: message.note, stop: () => child.stop() };
  } catch (error) {
    await child.stop();
    throw error;
  }
}

const camel = (snake: string) => snake.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/** The whole register through GET /api/consolidated-curves, as rows for the bare server's copy. */
async function registerRows(ctx: ScenarioContext, cookie: string): Promise<CurvesMessage> {
  const rows: Array<Record<string, unknown>> = [];
  for (let offset = 0; ; offset += COPY_PAGE) {
    const { curves } = await curvePage(ctx, cookie, `limit=${COPY_PAGE}&offset=${offset}`);
    for (const curve of curves as ReadonlyArray<Record<string, unknown>>) {
      rows.push(Object.fromEntries(COPIED_CURVE_COLUMNS.map((column) => [column, curve[camel(column)] ?? null])));
    }
    if (curves.length < COPY_PAGE) return { type: 'curves', rows };
  }
}

export interface BareReadOptions {
  /** On PGlite: what its in-memory database holds (default 'curves'). */
  data?: BareData;
  /** For 'user': who, and the password to hash. */
  user?: { employeeId: string; password: string };
}

/**
 * The bare read routes; `cookie` (an Admin's) is used on PGlite to copy the register through
 * the API ('curves'). 'records' on PGlite needs the run's generated records (`ctx.dataset`).
 */
export function startBareReadServer(ctx: ScenarioContext, cookie: string, options: BareReadOptions = {}): Promise<BareServer> {
  const data = options.data ?? 'curves';
  const generated = ctx.dataset?.generated;
  if (!ctx.databaseUrl && data === 'records' && !generated) throw new Error("the bare read baseline over the records needs the run's generated records (dataset: records)");
  const env = {
    BARE_DATABASE_URL: ctx.databaseUrl ?? '',
    BARE_DATA: data,
    ...generatedDataEnv({ today: dateInTimeZone(new Date(), APP_TIME_ZONE), count: generated?.count ?? 0, curves: generated?.curves ?? 0 }),
    BARE_USER: options.user?.employeeId ?? '',
    BARE_PASSWORD: options.user?.password ?? '',
  };
  const copy = !ctx.databaseUrl && data === 'curves' ? () => registerRows(ctx, cookie) : undefined;
  // 'records' on PGlite: the demo seed and 100k generated records take a while.
  return startBare('read', env, copy, 900_000);
}

export interface BareUploadServer extends BareServer {
  /** Where it writes the files. */
  dir: string;
  /** The files it has written (finished ones: not the `.tmp` of uploads in flight). */
  files(): Promise<DirUsage>;
}

/** The bare upload route, writing into a scratch folder under the system temp dir (the server's disk), removed by stop(). */
export async function startBareUploadServer(): Promise<BareUploadServer> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'hkmi-bench-bare-upload-'));
  try {
    const bare = await startBare('upload', { BARE_UPLOAD_DIR: dir });
    return {
      ...bare,
      dir,
      files: () => dirUsage(dir, { skip: (name) => name.endsWith('.tmp') }),
      async stop() {
        await bare.stop();
        await rm(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}

/**
 * Each record's photo file in the server's store (records sharing a photo share the file): the
 * photo as the server answers it, its sha256 and so its path in DATA_DIR/blobs/<h[0:2]>/<h[2:4]>/<sha256>.
 */
async function photoFiles(ctx: ScenarioContext, cookie: string, ids: readonly string[]): Promise<Record<string, ZipPhoto>> {
  const files: Record<string, ZipPhoto> = {};
  for (const id of ids) {
    const response = await fetch(`${ctx.baseUrl}/api/image/download/${encodeURIComponent(id)}`, { headers: { cookie }, signal: AbortSignal.timeout(60_000) });
    const bytes = Buffer.from(await response.arrayBuffer());
    if (response.status !== 200) throw new Error(`GET /api/image/download/${id} answered HTTP ${response.status}: ${bytes.toString('utf8').slice(0, 200)}`);
    const hash = createHash('sha256').update(bytes).digest('hex');
    const file = path.join(ctx.dataDir, 'blobs', hash.slice(0, 2), hash.slice(2, 4), hash);
    const size = (await stat(file).catch(() => null))?.size;
    if (size !== bytes.length) throw new Error(`the photo of ${id} is not at ${file} with its ${bytes.length} bytes (the store's layout changed?)`);
    files[id] = { path: file, name: `inspection_${id}.jpg`, size };
  }
  return files;
}

/** The bare zip route over the records' photo files; `distinctFiles`: how many files they share. */
export async function startBareZipServer(ctx: ScenarioContext, cookie: string, ids: readonly string[]): Promise<BareServer & { distinctFiles: number }> {
  const files = await photoFiles(ctx, cookie, ids);
  const bare = await startBare('zip', {}, () => Promise.resolve({ type: 'files', files } satisfies ZipFilesMessage));
  return { ...bare, distinctFiles: new Set(Object.values(files).map((f) => f.path)).size };
}
