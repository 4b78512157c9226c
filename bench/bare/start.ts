/** Starts a bare route (./server.ts) in its own process beside the server, for the same load or work as the product's. */
import { createHash } from 'node:crypto';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { forkReady } from '../lib/child.js';
import { dirUsage } from '../lib/process-stats.js';
import { curvePage } from '../lib/register.js';
import { PROJECT_ROOT } from '../lib/server.js';
import type { ScenarioContext } from '../lib/types.js';
import { serverToday } from '../lib/variables.js';
import { generatedDataEnv } from './database.js';

export const BARE_PAGE = 50;
export const BARE_UPLOAD_PATH = '/upload';
export const BARE_ZIP_PATH = '/zip';

export const COPIED_CURVE_COLUMNS = [
  'no', 'hkm_code', 'division_railway', 'section', 'curve_number', 'line', 'km_from', 'met_from', 'km_to', 'met_to',
  'length', 'station1', 'station2', 'degree', 'den', 'aen', 'sse', 'comments',
] as const;

export type BareReadRoute = 'ping' | 'curves' | 'inspections' | 'actions' | 'aggregate' | 'login';
export type BareRoute = BareReadRoute | 'upload' | 'upload-durable' | 'zip';
export interface BareReady {
  port: number;
  note: string;
}
export type CurvesMessage = { type: 'curves'; rows: Array<Record<string, unknown>> };
export type ZipFilesMessage = { type: 'files'; files: Record<string, { path: string; name: string; size: number }> };

const ENTRY = path.join(PROJECT_ROOT, 'bench', 'bare', 'server.ts');
const COPY_PAGE = 5000;

async function startBare(route: BareRoute, env: Record<string, string>, first?: () => Promise<unknown>, timeoutMs = 60_000) {
  const { child, ready } = await forkReady<BareReady>(`the bare ${route} server`, ENTRY, { ...env, BARE_KIND: route }, timeoutMs, first);
  return { baseUrl: `http://127.0.0.1:${ready.port}`, pid: child.pid, where: ready.note, stop: () => child.stop() };
}

const camel = (snake: string) => snake.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

async function registerRows(ctx: ScenarioContext, cookie: string): Promise<CurvesMessage> {
  const rows: CurvesMessage['rows'] = [];
  for (let offset = 0; ; offset += COPY_PAGE) {
    const { curves } = await curvePage(ctx, cookie, `limit=${COPY_PAGE}&offset=${offset}`);
    for (const curve of curves as ReadonlyArray<Record<string, unknown>>) {
      rows.push(Object.fromEntries(COPIED_CURVE_COLUMNS.map((column) => [column, curve[camel(column)] ?? null])));
    }
    if (curves.length < COPY_PAGE) return { type: 'curves', rows };
  }
}

export function startBareReadServer(ctx: ScenarioContext, route: BareReadRoute, adminCookie: () => Promise<string>) {
  const generated = ctx.dataset?.generated;
  if (!ctx.databaseUrl && (route === 'inspections' || route === 'actions') && !generated) throw new Error("the bare read baseline over the records needs the run's generated records (dataset: records)");
  const env = {
    BARE_DATABASE_URL: ctx.databaseUrl ?? '',
    ...generatedDataEnv({ today: serverToday(), count: generated?.count ?? 0, curves: generated?.curves ?? 0 }),
    BARE_USER: ctx.demo.byRole('Technician').employeeId,
    BARE_PASSWORD: ctx.demo.password,
  };
  const copy = !ctx.databaseUrl && route === 'curves' ? async () => registerRows(ctx, await adminCookie()) : undefined;
  // 'inspections' and 'actions' on PGlite: the demo seed and 100k generated records take a while.
  return startBare(route, env, copy, 900_000);
}

/**
 * `upload`: the multipart streamed to a file with sha256. `upload-durable`: the same, then the product's durability steps
 * (fsync, rename, fsync of the folder) and one INSERT into the run's database (BARE_DATABASE_URL; else a PGlite on disk).
 */
export async function startBareUploadServer(kind: 'upload' | 'upload-durable' = 'upload', databaseUrl?: string) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'hkmi-bench-bare-upload-'));
  const pgliteDir = kind === 'upload-durable' && !databaseUrl ? await mkdtemp(path.join(os.tmpdir(), 'hkmi-bench-bare-pglite-')) : '';
  const removeDirs = () => Promise.all([dir, pgliteDir].filter(Boolean).map((d) => rm(d, { recursive: true, force: true })));
  const env = { BARE_UPLOAD_DIR: dir, BARE_DATABASE_URL: databaseUrl ?? '', BARE_PGLITE_DIR: pgliteDir };
  const bare = await startBare(kind, env).catch(async (error: unknown) => {
    await removeDirs();
    throw error;
  });
  return {
    ...bare,
    // Finished files only: not the `.tmp` of uploads in flight.
    files: () => dirUsage(dir, { skip: (name) => name.endsWith('.tmp') }),
    stop: () => bare.stop().then(removeDirs),
  };
}

export async function startBareZipServer(ctx: ScenarioContext, cookie: string, ids: readonly string[]) {
  const files: ZipFilesMessage['files'] = {};
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
  const bare = await startBare('zip', {}, () => Promise.resolve({ type: 'files', files } satisfies ZipFilesMessage));
  return { ...bare, distinctFiles: new Set(Object.values(files).map((f) => f.path)).size };
}
