/**
 * The bare baseline for API reads (docs/architecture.md, 'Budgets'): "a bare Fastify + Drizzle route reading one
 * indexed page of the same table, same run". bench/lib/bare-read-server.ts has the routes (a page
 * of the register, the same ~1000 curves, a page of inspection_logs, `select 1`, a sign-in);
 * this starts it in a process of its own beside the server, on the server's PostgreSQL database,
 * or on PGlite (whose data dir the server holds) on an in-memory database of its own: a copy of
 * the register read through the API, the generated records made again by the bench generator,
 * or one user. A read scenario then puts the same load on it as on the product and judges the ratio.
 */
import path from 'node:path';
import { dateInTimeZone } from '../../common/rules/dates.js';
import { forkChild } from './child.js';
import { PROJECT_ROOT } from './server.js';
import type { ScenarioContext } from './types.js';

export const BARE_PAGE = 50;

/** The register's columns a copy is made of (all but id and the timestamps), snake_case as in SQL. */
export const COPIED_CURVE_COLUMNS = [
  'no', 'hkm_code', 'division_railway', 'section', 'curve_number', 'line', 'km_from', 'met_from', 'km_to', 'met_to',
  'length', 'station1', 'station2', 'degree', 'den', 'aen', 'sse', 'comments',
] as const;

/** What the bare server's in-memory PGlite holds (PostgreSQL: it reads the server's database whatever this says). */
export type BareData = 'curves' | 'records' | 'user' | 'none';

export type BareMessage = { type: 'ready'; port: number; note: string } | { type: 'failed'; message: string };
export interface CurvesMessage {
  type: 'curves';
  /** Keyed by COPIED_CURVE_COLUMNS. */
  rows: Array<Record<string, unknown>>;
}

const ENTRY = path.join(PROJECT_ROOT, 'bench', 'lib', 'bare-read-server.ts');
/** GET /api/consolidated-curves's largest page. */
const COPY_PAGE = 5000;
/** The railway's calendar, as the runner's generator uses it. */
const APP_TIME_ZONE = process.env.APP_TIMEZONE?.trim() || 'Asia/Kolkata';

export interface BareReadServer {
  baseUrl: string;
  pid: number;
  /** What it reads from, for the notes. */
  where: string;
  /** Curves in its table (PGlite 'curves': copied). */
  curves: number | null;
  stop(): Promise<void>;
}

export interface BareReadOptions {
  /** On PGlite: what its in-memory database holds (default 'curves'). */
  data?: BareData;
  /** For 'user': who, and the password to hash. */
  user?: { employeeId: string; password: string };
}

const camel = (snake: string) => snake.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/** The whole register through GET /api/consolidated-curves, as rows for the bare server's copy. */
async function registerRows(ctx: ScenarioContext, cookie: string): Promise<Array<Record<string, unknown>>> {
  const rows: Array<Record<string, unknown>> = [];
  for (let offset = 0; ; offset += COPY_PAGE) {
    const url = `${ctx.baseUrl}/api/consolidated-curves?limit=${COPY_PAGE}&offset=${offset}`;
    const response = await fetch(url, { headers: { cookie }, signal: AbortSignal.timeout(60_000) });
    const text = await response.text();
    const body = response.status === 200 ? (JSON.parse(text) as { curves?: unknown; total?: unknown }) : null;
    if (!body || !Array.isArray(body.curves)) throw new Error(`GET ${url} answered HTTP ${response.status}: ${text.slice(0, 300)}`);
    for (const curve of body.curves as Array<Record<string, unknown>>) {
      rows.push(Object.fromEntries(COPIED_CURVE_COLUMNS.map((column) => [column, curve[camel(column)] ?? null])));
    }
    if (body.curves.length < COPY_PAGE) return rows;
  }
}

/**
 * Starts the bare routes; `cookie` (an Admin's) is used on PGlite to copy the register through
 * the API ('curves'). 'records' on PGlite needs the run's generated records (`ctx.dataset`).
 */
export async function startBareReadServer(ctx: ScenarioContext, cookie: string, options: BareReadOptions = {}): Promise<BareReadServer> {
  const data = options.data ?? 'curves';
  const generated = ctx.dataset?.generated;
  if (!ctx.databaseUrl && data === 'records' && !generated) throw new Error("the bare read baseline over the records needs the run's generated records (dataset: records)");
  const child = forkChild<BareMessage>(ENTRY, {
    BARE_DATABASE_URL: ctx.databaseUrl ?? '',
    BARE_DATA: data,
    BARE_TODAY: dateInTimeZone(new Date(), APP_TIME_ZONE),
    BARE_COUNT: String(generated?.count ?? 0),
    BARE_CURVES: String(generated?.curves ?? 0),
    BARE_USER: options.user?.employeeId ?? '',
    BARE_PASSWORD: options.user?.password ?? '',
  });
  try {
    let curves: number | null = null;
    if (!ctx.databaseUrl && data === 'curves') {
      const rows = await registerRows(ctx, cookie);
      curves = rows.length;
      child.send({ type: 'curves', rows } satisfies CurvesMessage);
    }
    // 'records' on PGlite: the demo seed and 100k generated records take a while.
    const message = await child.next(900_000);
    if (message.type !== 'ready') throw new Error(`the bare read server failed: ${message.message}`);
    return {
      baseUrl: `http://127.0.0.1:${message.port}`,
      pid: child.pid,
      where: message.note,
      curves,
      stop: () => child.stop(),
    };
  } catch (error) {
    await child.stop();
    throw error;
  }
}
