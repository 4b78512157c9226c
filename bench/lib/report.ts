/** The runner's verdicts and table: the bare ceiling and ratio (`ceilingOf`), the budget (`judge`), the table and its footnotes. */
import path from 'node:path';
import { serverLogFile, type ServerLogSummary } from './server.js';
import { formatTable, num } from './table.js';
import type { Budget, DatabaseKind, DatasetInfo, ScenarioResult } from './types.js';

const DATABASE_NAMES: Record<DatabaseKind, string> = { pglite: 'PGlite', postgres: 'PostgreSQL' };

const ratioOf = (a: number, b: number) => Math.round((a / b) * 10_000) / 10_000;

export function ceilingOf(result: ScenarioResult | null) {
  const t = result?.throughputBaseline;
  if (result && t && t.throughput > 0) {
    const p99Ratio = t.p99Ms > 0 && result.latencyMs.p99 > 0 ? ratioOf(result.latencyMs.p99, t.p99Ms) : null;
    const [bare, product] = [t.throughput, result.throughput];
    return { kind: 'throughput' as const, description: t.description, unit: result.unit, bare, product, ratio: ratioOf(product, bare), bareP99Ms: t.p99Ms, p99Ratio, rssRiseRatio: null };
  }
  const b = result?.baseline;
  if (!b || !(b.baselineSeconds > 0)) return null;
  const rssRiseRatio = b.productRssRiseMb !== undefined && (b.baselineRssRiseMb ?? 0) > 0 ? ratioOf(b.productRssRiseMb, b.baselineRssRiseMb ?? 1) : null;
  const [bare, product] = [b.baselineSeconds, b.productSeconds];
  return { kind: 'time' as const, description: b.description, unit: 's', bare, product, ratio: ratioOf(product, bare), bareP99Ms: null, p99Ratio: null, rssRiseRatio };
}

export type Verdict = { kind: 'none' } | { kind: 'pass' | 'fail' | 'not-applicable'; detail: string };

export interface ScenarioRecord {
  name: string;
  description: string;
  status: 'ok' | 'failed';
  failure: string | null;
  result: ScenarioResult | null;
  rssBeforeMb: number | null;
  peakRssMb: number | null;
  budget: Budget | null;
  verdict: Verdict;
  ceiling: ReturnType<typeof ceilingOf>;
  noCeiling: string | null;
  ownServer?: string;
}

export function judge(budget: Budget | undefined, result: ScenarioResult | null, peakRssMb: number | null, database: DatabaseKind, cpus: number): Verdict {
  if (!budget) return { kind: 'none' };
  if (!result) return { kind: 'not-applicable', detail: 'no result' };
  const { latencyMs, throughput, unit, durationSeconds, baseline: b, throughputBaseline: t } = result;
  const ratio = (product?: number, bare?: number) => (product !== undefined && bare !== undefined && bare > 0 ? product / bare : null);
  const [timeRatio, rssRatio, throughputRatio, p99Ratio] = [
    ratio(b?.productSeconds, b?.baselineSeconds),
    ratio(b?.productRssRiseMb, b?.baselineRssRiseMb),
    ratio(throughput, t?.throughput),
    ratio(latencyMs.p99, t?.p99Ms),
  ];
  const percent = (fraction: number | null | undefined) => `${((fraction ?? 0) * 100).toFixed(0)}%`;
  const limits: Array<{ limit?: number; value: number | null; atMost: boolean; phrase: (op: string) => string; missing?: string }> = [
    { limit: budget.minThroughput, value: throughput, atMost: false, phrase: (op) => `${throughput} ${op} ${budget.minThroughput} ${unit}` },
    { limit: budget.maxDurationSeconds, value: durationSeconds, atMost: true, phrase: (op) => `${durationSeconds} s ${op} ${budget.maxDurationSeconds} s` },
    {
      limit: budget.maxRatioToBaseline,
      value: timeRatio,
      atMost: true,
      phrase: (op) => `${b?.productSeconds} s vs bare baseline ${b?.baselineSeconds} s (${b?.description}) = ${timeRatio?.toFixed(2)}x ${op} ${budget.maxRatioToBaseline}x`,
      missing: 'no bare baseline was measured',
    },
    {
      limit: budget.maxRssRatioToBaseline,
      value: rssRatio,
      atMost: true,
      phrase: (op) => `peak RSS rise ${b?.productRssRiseMb} MB vs bare baseline ${b?.baselineRssRiseMb} MB = ${rssRatio?.toFixed(2)}x ${op} ${budget.maxRssRatioToBaseline}x`,
      missing: 'no RSS rise of a bare baseline was measured',
    },
    {
      limit: budget.minThroughputRatioToBaseline,
      value: throughputRatio,
      atMost: false,
      phrase: (op) =>
        `${throughput} ${unit} = ${percent(throughputRatio)} of the bare baseline's ${t?.throughput} (${t?.description}; its p99 ${t?.p99Ms} ms) ${op} ${percent(budget.minThroughputRatioToBaseline)}`,
      missing: 'no bare baseline throughput was measured',
    },
    {
      limit: budget.maxP99RatioToBaseline,
      value: p99Ratio,
      atMost: true,
      phrase: (op) => `p99 ${latencyMs.p99} ms vs ${t?.p99Ms} ms (${t?.description}) = ${p99Ratio?.toFixed(2)}x ${op} ${budget.maxP99RatioToBaseline}x`,
      missing: 'no baseline p99 was measured',
    },
    { limit: budget.maxLatencyMs, value: latencyMs.max, atMost: true, phrase: (op) => `max ${latencyMs.max} ${op} ${budget.maxLatencyMs} ms` },
    { limit: budget.maxPeakRssMb, value: peakRssMb, atMost: true, phrase: (op) => `peak RSS ${Math.round(peakRssMb ?? 0)} ${op} ${budget.maxPeakRssMb} MB`, missing: 'peak RSS could not be read' },
  ];
  const checked: string[] = [];
  const broken: string[] = [];
  for (const { limit, value, atMost, phrase, missing } of limits) {
    if (limit === undefined) continue;
    const ok = value !== null && (atMost ? value <= limit : value >= limit);
    if (value === null) broken.push(missing ?? '');
    else (ok ? checked : broken).push(phrase(ok ? (atMost ? '<=' : '>=') : atMost ? '>' : '<'));
  }
  // A budget on an absolute figure still prints the baseline beside it (docs/architecture.md, 'Budgets').
  const beside =
    (b && budget.maxRatioToBaseline === undefined && timeRatio !== null
      ? `; bare baseline ${b.baselineSeconds} s (${b.description}), product ${b.productSeconds} s = ${timeRatio.toFixed(2)}x it`
      : '') +
    (t && budget.minThroughputRatioToBaseline === undefined && throughputRatio !== null
      ? `; bare baseline ${t.throughput} ${unit} (${t.description}), product ${throughput} = ${percent(throughputRatio)} of it`
      : '');
  const comparison = [...broken, ...checked].join(', ') + beside;
  const elsewhere =
    budget.database && budget.database !== database
      ? `budget is for ${DATABASE_NAMES[budget.database]}; on ${DATABASE_NAMES[database]},`
      : budget.cpus !== undefined && cpus !== budget.cpus
        ? `budget is for ${budget.cpus} CPUs, this machine has ${cpus};`
        : budget.connections !== undefined && result.connections !== budget.connections
          ? `budget is at ${budget.connections} connections, this run used ${String(result.connections)};`
          : null;
  if (elsewhere) return { kind: 'not-applicable', detail: `${elsewhere} for information: ${comparison}` };
  return { kind: broken.length > 0 ? 'fail' : 'pass', detail: comparison };
}

function verdictLabel({ verdict, budget }: ScenarioRecord, database: DatabaseKind): string {
  if (verdict.kind === 'none') return '-';
  if (verdict.kind !== 'not-applicable') return verdict.kind === 'pass' ? 'pass' : 'FAIL';
  return budget?.database && budget.database !== database ? `n/a on ${DATABASE_NAMES[database]}` : 'n/a';
}

function ceilingCells(ceiling: ScenarioRecord['ceiling']): string[] {
  if (!ceiling) return ['-', '-', '-', '-'];
  if (ceiling.kind === 'time') return [`${num(ceiling.bare, ceiling.bare < 10 ? 3 : 1)} s`, `${num(ceiling.ratio, 2)}x time`, '-', '-'];
  // One decimal: 79.6% must not read 80%.
  const p99Ratio = ceiling.p99Ratio === null ? '-' : `${num(ceiling.p99Ratio, 2)}x`;
  return [`${num(ceiling.bare)} ${ceiling.unit}`, `${num(ceiling.ratio * 100, 1)}% thr`, num(ceiling.bareP99Ms, 2), p99Ratio];
}

export interface RunResults {
  date: string;
  node: string;
  cpus: { count: number; model: string };
  totalMemoryMb: number;
  loadAverage: number[];
  database: { kind: DatabaseKind; version: string | null };
  serverRssWhenReadyMb: number | null;
  dataset: DatasetInfo | null;
  settings: { durationSeconds: number; warmupSeconds: number; connectionsOverride: number | null };
  passed: boolean;
  serverLog: ServerLogSummary;
  ownServerLogs: Array<ServerLogSummary & { scenario: string }>;
  scenarios: ScenarioRecord[];
}

const HEADERS = ['scenario', 'throughput', 'conns', 'p50 ms', 'p99 ms', 'bare ceiling', 'ratio', 'bare p99', 'p99 ratio', 'peak RSS MB', 'errors', 'budget'];

export function report(run: RunResults): string {
  const { database, settings, dataset } = run;
  const lines = [
    '',
    `Bench: ${database.kind === 'pglite' ? 'PGlite (embedded)' : 'PostgreSQL'}${database.version ? ` [${database.version}]` : ''}, Node ${run.node}, ` +
      `${run.cpus.count} CPUs (${run.cpus.model}), ${run.totalMemoryMb} MB RAM, load average ${run.loadAverage.join(' ')} at start`,
    `Load phases ${settings.durationSeconds} s after ${settings.warmupSeconds} s warm-up; client (autocannon) and server share this machine.`,
    `Server: dist/server/main.js, NODE_ENV=production DEMO=1 ALLOW_DEMO_IN_PRODUCTION=1; RSS when ready ${num(run.serverRssWhenReadyMb, 0)} MB.`,
  ];
  if (dataset) {
    lines.push(
      `Data: demo seed + generated records: ${dataset.inspections} inspections, ${dataset.curves} curves, ${dataset.photos} distinct photos ` +
        `(loaded in ${num(dataset.loadSeconds, 1)} s before the server started).`,
    );
  }
  if (database.kind === 'pglite') lines.push('Database: embedded PGlite. The budgets for API reads are set on PostgreSQL; run with BENCH_DATABASE_URL to check them.');
  const rows = run.scenarios.map((r) => [
    r.name,
    r.result ? `${num(r.result.throughput)} ${r.result.unit}` : '-',
    r.result?.connections == null ? '-' : String(r.result.connections),
    num(r.result?.latencyMs.p50, 2),
    num(r.result?.latencyMs.p99, 2),
    ...ceilingCells(r.ceiling),
    num(r.peakRssMb, 0),
    r.result ? String(r.result.errors + r.result.non2xx) : 'failed',
    verdictLabel(r, database.kind),
  ]);
  const columns = HEADERS.map((header, i) => ({ header, align: i === 0 || i === HEADERS.length - 1 ? ('left' as const) : ('right' as const) }));
  lines.push('', formatTable(columns, rows), '');
  const footnotes = [
    'bare ceiling: the bare baseline measured in this run (docs/architecture.md, \'Budgets\'), beside the product\'s figure; ratio: "N% thr" = the product\'s ' +
      'throughput as a share of the bare route\'s under the same load (budget: >= 80% for reads and uploads), "Nx time" = the product\'s time ' +
      'over the bare work\'s (budget: <= 1.5x PDF and Excel); p99 ratio = the product\'s p99 over the bare route\'s (budget: <= 1.2x for reads)',
  ];
  for (const r of run.scenarios) {
    if (r.ownServer) footnotes.push(`${r.name}: ran against a server of its own: ${r.ownServer}`);
    if (r.failure) footnotes.push(`${r.name}: FAILED: ${r.failure}`);
    // A ceiling's figures and what it is are in the scenario's notes; its absence is said here.
    if (!r.ceiling && r.noCeiling) footnotes.push(`${r.name}: no bare ceiling: ${r.noCeiling}`);
    else if (!r.ceiling && r.result) footnotes.push(`${r.name}: no bare ceiling was measured (see its notes)`);
    if (r.budget && r.verdict.kind !== 'none') footnotes.push(`${r.name}: budget "${r.budget.description}": ${r.verdict.detail}`);
    for (const note of r.result?.notes ?? []) footnotes.push(`${r.name}: ${note}`);
  }
  const logged = (who: string, log: ServerLogSummary, scenario?: string) => {
    const file = path.relative(process.cwd(), serverLogFile(scenario));
    if (log.warnings + log.errors > 0) footnotes.push(`${who} logged ${log.warnings} warning(s) and ${log.errors} error(s); see ${file}`);
  };
  logged('server', run.serverLog);
  for (const own of run.ownServerLogs) logged(`${own.scenario}'s server`, own, own.scenario);
  return [...lines, ...footnotes.map((note) => `  * ${note}`)].join('\n');
}
