/**
 * The table `npm run bench` prints: the run's facts, one row per scenario (its figures, the bare
 * ceiling beside them and the ratio, peak RSS, errors, the budget's verdict) and the footnotes
 * (what each ceiling is, failures, budgets, every scenario's notes, the server's warnings).
 */
import path from 'node:path';
import { verdictLabel } from './budget.js';
import { ceilingCells } from './ceiling.js';
import type { MachineFacts } from './machine.js';
import type { ServerLogSummary } from './server.js';
import { formatTable, num } from './table.js';
import type { DatabaseKind, DatasetInfo, ScenarioRecord } from './types.js';

/** The settings the header names. */
export interface ReportSettings {
  durationSeconds: number;
  warmupSeconds: number;
  prepareSql: string | undefined;
}

const DATABASE_LABEL: Record<DatabaseKind, string> = { pglite: 'PGlite (embedded)', postgres: 'PostgreSQL' };

export interface ReportInput {
  facts: MachineFacts;
  records: readonly ScenarioRecord[];
  database: DatabaseKind;
  databaseVersion: string | null;
  settings: ReportSettings;
  serverLog: ServerLogSummary;
  logFile: string;
  readyRssMb: number | null;
  dataset: DatasetInfo | null;
  /** The servers of the scenarios that had their own. */
  ownServerLogs: ReadonlyArray<{ name: string; log: ServerLogSummary; file: string }>;
}

export function report({ facts, records, database, databaseVersion, settings, serverLog, logFile, readyRssMb, dataset, ownServerLogs }: ReportInput): string {
  const lines: string[] = [];
  lines.push('');
  lines.push(
    `Bench: ${DATABASE_LABEL[database]}${databaseVersion ? ` [${databaseVersion}]` : ''}, Node ${facts.node}, ${facts.cpus.count} CPUs (${facts.cpus.model}), ${facts.totalMemoryMb} MB RAM, load average ${facts.loadAverage.join(' ')} at start`,
  );
  lines.push(
    `Load phases ${settings.durationSeconds} s after ${settings.warmupSeconds} s warm-up; client (autocannon) and server share this machine.`,
  );
  lines.push(`Server: dist/server/main.js, NODE_ENV=production DEMO=1 ALLOW_DEMO_IN_PRODUCTION=1; RSS when ready ${num(readyRssMb, 0)} MB.`);
  if (settings.prepareSql) lines.push(`Database prepared with ${path.relative(process.cwd(), settings.prepareSql)} (BENCH_PREPARE_SQL) before the server started.`);
  if (dataset) {
    lines.push(
      `Data: demo seed + generated records: ${dataset.inspections} inspections, ${dataset.curves} curves, ${dataset.photos} distinct photos ` +
        `(loaded in ${num(dataset.loadSeconds, 1)} s before the server started).`,
    );
  }
  if (database === 'pglite') {
    lines.push('Database: embedded PGlite. The budgets for API reads are set on PostgreSQL; run with BENCH_DATABASE_URL to check them.');
  }
  lines.push('');
  const rows = records.map((r) => [
    r.name,
    r.result ? `${num(r.result.throughput)} ${r.result.unit}` : '-',
    r.result?.connections === null || r.result === null ? '-' : String(r.result.connections),
    num(r.result?.latencyMs.p50, 2),
    num(r.result?.latencyMs.p99, 2),
    ...ceilingCells(r.ceiling),
    num(r.peakRssMb, 0),
    r.result ? String(r.result.errors + r.result.non2xx) : 'failed',
    verdictLabel(r.verdict, r.budget ?? undefined, database),
  ]);
  lines.push(
    formatTable(
      [
        { header: 'scenario' },
        { header: 'throughput', align: 'right' },
        { header: 'conns', align: 'right' },
        { header: 'p50 ms', align: 'right' },
        { header: 'p99 ms', align: 'right' },
        { header: 'bare ceiling', align: 'right' },
        { header: 'ratio', align: 'right' },
        { header: 'bare p99', align: 'right' },
        { header: 'p99 ratio', align: 'right' },
        { header: 'peak RSS MB', align: 'right' },
        { header: 'errors', align: 'right' },
        { header: 'budget' },
      ],
      rows,
    ),
  );
  const footnotes: string[] = [
    'bare ceiling: the bare baseline measured in this run (docs/architecture.md, \'Budgets\'), beside the product\'s figure; ratio: "N% thr" = the product\'s ' +
      'throughput as a share of the bare route\'s under the same load (budget: >= 80% for reads and uploads), "Nx time" = the product\'s time ' +
      'over the bare work\'s (budget: <= 3x PDF, <= 1.5x Excel); p99 ratio = the product\'s p99 over the bare route\'s',
  ];
  for (const r of records) {
    if (r.ownServer) footnotes.push(`${r.name}: ran against a server of its own: ${r.ownServer}`);
    if (r.failure) footnotes.push(`${r.name}: FAILED: ${r.failure}`);
    // A ceiling's figures and what it is are in the scenario's notes; its absence is said here.
    if (!r.ceiling && r.noCeiling) footnotes.push(`${r.name}: no bare ceiling: ${r.noCeiling}`);
    else if (!r.ceiling && r.result) footnotes.push(`${r.name}: no bare ceiling was measured (see its notes)`);
    if (r.budget && r.verdict.kind !== 'none') footnotes.push(`${r.name}: budget "${r.budget.description}": ${r.verdict.detail}`);
    for (const note of r.result?.notes ?? []) footnotes.push(`${r.name}: ${note}`);
  }
  if (serverLog.warnings + serverLog.errors > 0) {
    footnotes.push(`server logged ${serverLog.warnings} warning(s) and ${serverLog.errors} error(s); see ${path.relative(process.cwd(), logFile)}`);
  }
  for (const own of ownServerLogs) {
    if (own.log.warnings + own.log.errors > 0) {
      footnotes.push(`${own.name}'s server logged ${own.log.warnings} warning(s) and ${own.log.errors} error(s); see ${path.relative(process.cwd(), own.file)}`);
    }
  }
  if (footnotes.length > 0) {
    lines.push('');
    for (const note of footnotes) lines.push(`  * ${note}`);
  }
  return lines.join('\n');
}

