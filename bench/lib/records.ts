/** Read scenario helpers: JSON reads checked against the product's contracts (common/schemas/), timings alone, CPU per request. */
import { performance } from 'node:perf_hooks';
import type { ZodType } from 'zod';
import { type InspectionLog, inspectionListResponseSchema } from '../../common/schemas/inspection.js';
import { ownCpuSeconds, readCommandCpuSeconds, readCpuSeconds } from './process-stats.js';
import { median, round } from './stats.js';
import type { Budget, ScenarioContext } from './types.js';

export const READ_BUDGET: Budget = {
  description:
    "API reads with 100k inspections / 10k curves: p99 <= 50 ms at 50 connections on PostgreSQL and >= 80% of the bare Fastify + Drizzle baseline's throughput (docs/architecture.md, 'Budgets')",
  maxP99Ms: 50,
  minThroughputRatioToBaseline: 0.8,
  connections: 50,
  database: 'postgres',
};

export async function getJson(ctx: ScenarioContext, path: string, cookie: string, timeoutMs = 30_000) {
  const started = performance.now();
  const response = await fetch(`${ctx.baseUrl}${path}`, { headers: { cookie }, signal: AbortSignal.timeout(timeoutMs) });
  const text = await response.text();
  const ms = performance.now() - started;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = text.slice(0, 300);
  }
  return { status: response.status, body, bytes: Buffer.byteLength(text), ms, etag: response.headers.get('etag') };
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
  const started = performance.now();
  const init = { method: 'POST', headers: { cookie, 'content-type': 'application/json' }, body: JSON.stringify(body), signal: AbortSignal.timeout(timeoutMs) };
  const response = await fetch(`${ctx.baseUrl}${path}`, init);
  const text = await response.text();
  const ms = performance.now() - started;
  if (!response.ok) throw new Error(`POST ${path} answered HTTP ${response.status}: ${text.slice(0, 300)}`);
  const parsed = schema.safeParse(JSON.parse(text));
  if (!parsed.success) throw new Error(`POST ${path}: an answer that is not the contract: ${text.slice(0, 300)}`);
  return { status: response.status, ms, body: parsed.data };
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

export async function cpuMark(ctx: ScenarioContext) {
  const [server, database] = await Promise.all([
    readCpuSeconds(ctx.serverPid),
    ctx.database === 'postgres' ? readCommandCpuSeconds('postgres') : Promise.resolve(null),
  ]);
  return { server: server?.total ?? null, main: server?.main ?? null, database, own: ownCpuSeconds(), at: performance.now() };
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
