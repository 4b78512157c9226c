/** Read scenario helpers: JSON reads checked against the product's contracts (common/schemas/), timings alone, CPU per request. */
import { performance } from 'node:perf_hooks';
import type { ZodType } from 'zod';
import { type InspectionLog, inspectionListResponseSchema } from '../../common/schemas/inspection.js';
import { ownCpuSeconds, readCommandCpuSeconds, readCpuSeconds, readMachineBusySeconds } from './process-stats.js';
import { median, round } from './stats.js';
import type { Budget, ScenarioContext } from './types.js';

/**
 * Both sides of the ratio come from the same run: on a small machine shared with the load generator even the bare route's p99
 * is above any fixed figure, so a fixed one would judge the machine, not the product.
 */
export const READ_BUDGET: Budget = {
  description:
    "API reads with 100k inspections / 10k curves: p99 <= 1.2x and throughput >= 80% of the bare Fastify + Drizzle baseline's in the same run, at 50 connections on PostgreSQL (docs/architecture.md, 'Budgets')",
  maxP99RatioToBaseline: 1.2,
  minThroughputRatioToBaseline: 0.8,
  connections: 50,
  database: 'postgres',
};

/** One request, its answer read as text, timed from the sending to the last byte. */
export async function timedFetch(url: string, init: RequestInit, timeoutMs = 30_000) {
  const started = performance.now();
  const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), ...init });
  const text = await response.text();
  return { status: response.status, text, ms: performance.now() - started, etag: response.headers.get('etag') };
}

export function parsedJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

export async function getJson(ctx: ScenarioContext, path: string, cookie: string, timeoutMs = 30_000) {
  const { text, ...answer } = await timedFetch(`${ctx.baseUrl}${path}`, { headers: { cookie } }, timeoutMs);
  const body: unknown = parsedJson(text) ?? text.slice(0, 300);
  return { ...answer, body, bytes: Buffer.byteLength(text) };
}

export type JsonAnswer = Awaited<ReturnType<typeof getJson>>;

export async function getParsed<T>(ctx: ScenarioContext, path: string, cookie: string, schema: ZodType<T>, timeoutMs?: number): Promise<JsonAnswer & { body: T }> {
  const answer = await getJson(ctx, path, cookie, timeoutMs);
  const parsed = schema.safeParse(answer.body);
  if (answer.status !== 200 || !parsed.success) {
    throw new Error(`GET ${path} answered HTTP ${answer.status}${parsed.success ? '' : ' (not the contract)'}: ${JSON.stringify(answer.body).slice(0, 300)}`);
  }
  return { ...answer, body: parsed.data };
}

export async function postParsed<T>(ctx: ScenarioContext, path: string, cookie: string, body: unknown, schema: ZodType<T>, timeoutMs: number) {
  const init = { method: 'POST', headers: { cookie, 'content-type': 'application/json' }, body: JSON.stringify(body) };
  const { status, text, ms } = await timedFetch(`${ctx.baseUrl}${path}`, init, timeoutMs);
  if (status < 200 || status > 299) throw new Error(`POST ${path} answered HTTP ${status}: ${text.slice(0, 300)}`);
  const parsed = schema.safeParse(parsedJson(text));
  if (!parsed.success) throw new Error(`POST ${path}: an answer that is not the contract: ${text.slice(0, 300)}`);
  return { status, ms, body: parsed.data };
}

export async function inspectionPage(ctx: ScenarioContext, cookie: string, query: string): Promise<{ logs: InspectionLog[]; total: number; bytes: number; ms: number }> {
  const { body, bytes, ms } = await getParsed(ctx, `/api/inspections?${query}`, cookie, inspectionListResponseSchema);
  return { ...body, bytes, ms };
}

export async function medianMs(times: number, op: () => Promise<number>): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < times; i++) samples.push(await op());
  return round(median(samples), 2);
}

export const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** CPU seconds so far of the server (or another process as ctx.serverPid), PostgreSQL's, the helpers', the machine's and this process's. */
export async function cpuMark(ctx: ScenarioContext, helpers: ReadonlyArray<{ pid: number }> = []) {
  const [server, database, machine, ...helperCpu] = await Promise.all([
    readCpuSeconds(ctx.serverPid),
    ctx.database === 'postgres' ? readCommandCpuSeconds('postgres') : Promise.resolve(null),
    readMachineBusySeconds(),
    ...helpers.map(async (h) => (await readCpuSeconds(h.pid))?.total ?? null),
  ]);
  const { total = null, main = null, threads = {} } = server ?? {};
  return { server: total, main, threads, database, machine, helpers: helperCpu, own: ownCpuSeconds(), at: performance.now() };
}

export type CpuMark = Awaited<ReturnType<typeof cpuMark>>;

/** CPU seconds between two marks; PostgreSQL's null when unknown, or when one of its processes exited meanwhile (the sum drops). */
export function cpuSpent(start: CpuMark | undefined, end: CpuMark) {
  const spent = (a: number | null | undefined, b: number | null) => (a != null && b !== null && b >= a ? b - a : null);
  const { server, main, database, own } = end;
  return { seconds: start ? (end.at - start.at) / 1000 : 0, server: spent(start?.server, server), main: spent(start?.main, main), database: spent(start?.database, database), own: spent(start?.own, own) };
}

/** "server (Node) X ms (Y cores), PostgreSQL ..., load generator ...": per request when given the requests, else cores. */
export function cpuParts(start: CpuMark | undefined, end: CpuMark, requests = 0, server = 'server (Node)'): string {
  const spent = cpuSpent(start, end);
  const cores = (cpu: number) => `${(cpu / spent.seconds).toFixed(2)} cores`;
  const figures: Array<[string, number | null]> = [[server, spent.server], ['PostgreSQL', spent.database], ['load generator', spent.own]];
  return figures
    .flatMap(([label, cpu]) => (cpu === null || !(spent.seconds > 0) ? [] : [`${label} ${requests > 0 ? `${((cpu * 1000) / requests).toFixed(2)} ms (${cores(cpu)})` : cores(cpu)}`]))
    .join(', ');
}

export function cpuNote(start: CpuMark | undefined, end: CpuMark, requests: number): string | null {
  if (cpuSpent(start, end).server === null || requests === 0) return null;
  return `CPU per request over the measured phase (${requests} requests): ${cpuParts(start, end, requests)}`;
}
