/**
 * `npm run bench [-- <scenario> ...]`: builds (the npm script does), starts the built server
 * on a scratch database with the demo seed, runs the named scenarios (all by default) one
 * after another while sampling the server's memory, prints a table and writes
 * bench/results.json. Exits 1 when a scenario had errors or an applicable budget failed.
 *
 * Environment:
 *   BENCH_DATABASE_URL  PostgreSQL URL to create (and afterwards drop) a scratch database
 *                       through; unset = embedded PGlite in a scratch DATA_DIR
 *   BENCH_DURATION      seconds per measured load phase (default 5)
 *   BENCH_WARMUP        seconds of unmeasured warm-up before each (default 1; 0 = none)
 *   BENCH_CONNECTIONS   connections for every load scenario instead of each one's own
 *   BENCH_RESULTS       where to write the JSON results (default bench/results.json)
 *   BENCH_INSPECTIONS   generated inspection records for the scenarios that need them (default 100000)
 *   BENCH_CURVES        curve register size they top up to (default 10000)
 *   BENCH_PREPARE_SQL   a .sql file run on the scratch database before the server starts (after
 *                       the generated data), e.g. to try an index; the report names it
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from '../server/db/seed/demo-accounts.js';
import { readFile } from 'node:fs/promises';
import { describeSummary, loadBenchData, openTarget } from './dataset/generate-inspections.js';
import { judge, verdictLabel } from './lib/budget.js';
import { ceilingCells, ceilingOf } from './lib/ceiling.js';
import { machineFacts, type MachineFacts } from './lib/machine.js';
import { readRssMb, sampleRss } from './lib/memory.js';
import { PROJECT_ROOT, startServer, type RunningServer, type ServerLogSummary } from './lib/server.js';
import { signIn } from './lib/session.js';
import { round } from './lib/stats.js';
import { formatTable, num } from './lib/table.js';
import type { DatabaseKind, DatasetInfo, Scenario, ScenarioContext, ScenarioRecord, ScenarioResult } from './lib/types.js';
import { scenarios } from './scenarios/index.js';

const log = (message: string) => process.stderr.write(`[bench] ${message}\n`);

class UsageError extends Error {}

function positiveNumber(name: string, fallback: number, { allowZero = false, integer = false } = {}): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  const ok = Number.isFinite(value) && (allowZero ? value >= 0 : value > 0) && (!integer || Number.isInteger(value));
  if (!ok) throw new UsageError(`${name} must be a ${integer ? 'whole ' : ''}number ${allowZero ? '>= 0' : '> 0'}, got '${raw}'`);
  return value;
}

interface Settings {
  selected: readonly Scenario[];
  durationSeconds: number;
  warmupSeconds: number;
  connectionsOverride: number | undefined;
  adminDatabaseUrl: string | undefined;
  resultsFile: string;
  /** Sizes of the generated 'records' dataset. */
  inspections: number;
  curves: number;
  /** BENCH_PREPARE_SQL, resolved. */
  prepareSql: string | undefined;
}

function readSettings(argv: readonly string[]): Settings | 'list' {
  const names = argv.filter((a) => !a.startsWith('-'));
  if (argv.includes('--list') || argv.includes('-l')) return 'list';
  const unknownFlags = argv.filter((a) => a.startsWith('-'));
  if (unknownFlags.length > 0) throw new UsageError(`unknown option ${unknownFlags.join(' ')} (scenario names, or --list)`);
  const byName = new Map(scenarios.map((s) => [s.name, s]));
  const unknown = names.filter((n) => !byName.has(n));
  if (unknown.length > 0) {
    throw new UsageError(`unknown scenario ${unknown.join(', ')}; known: ${scenarios.map((s) => s.name).join(', ')}`);
  }
  // Named scenarios run in the registry's order, each once.
  const selected = names.length > 0 ? scenarios.filter((s) => names.includes(s.name)) : scenarios;
  const connections = process.env.BENCH_CONNECTIONS?.trim() ? positiveNumber('BENCH_CONNECTIONS', 1, { integer: true }) : undefined;
  const adminDatabaseUrl = process.env.BENCH_DATABASE_URL?.trim() || undefined;
  if (adminDatabaseUrl && !/^postgres(ql)?:\/\//.test(adminDatabaseUrl)) {
    throw new UsageError('BENCH_DATABASE_URL must start with postgres:// or postgresql://');
  }
  return {
    selected,
    durationSeconds: positiveNumber('BENCH_DURATION', 5),
    warmupSeconds: positiveNumber('BENCH_WARMUP', 1, { allowZero: true }),
    connectionsOverride: connections,
    adminDatabaseUrl,
    resultsFile: path.resolve(process.env.BENCH_RESULTS?.trim() || path.join(PROJECT_ROOT, 'bench', 'results.json')),
    inspections: positiveNumber('BENCH_INSPECTIONS', 100_000, { integer: true }),
    curves: positiveNumber('BENCH_CURVES', 10_000, { integer: true }),
    prepareSql: process.env.BENCH_PREPARE_SQL?.trim() ? path.resolve(process.env.BENCH_PREPARE_SQL.trim()) : undefined,
  };
}

function makeContext(server: RunningServer, settings: Settings, dataset: DatasetInfo | null): ScenarioContext {
  return {
    baseUrl: server.baseUrl,
    database: server.database,
    durationSeconds: settings.durationSeconds,
    warmupSeconds: settings.warmupSeconds,
    connections: (scenarioDefault) => settings.connectionsOverride ?? scenarioDefault,
    signIn: (employeeId, password = DEMO_PASSWORD) => signIn(server.baseUrl, employeeId, password),
    demo: {
      password: DEMO_PASSWORD,
      accounts: DEMO_ACCOUNTS,
      byRole(role) {
        const account = DEMO_ACCOUNTS.find((a) => a.role === role);
        if (!account) throw new Error(`the demo seed has no ${role} account`);
        return account;
      },
    },
    log,
    serverPid: server.pid,
    dataDir: server.dataDir,
    databaseUrl: server.databaseUrl,
    dataset,
    serverEnv: server.env,
  };
}

/**
 * A scenario with a server of its own (Scenario.ownServer): its service first, then a second
 * bench server with the service's environment added (scratch DATA_DIR and database, demo seed),
 * the scenario against it, then both stopped. The main server stays up, idle, meanwhile.
 */
async function runOnOwnServer(
  scenario: Scenario & { ownServer: NonNullable<Scenario['ownServer']> },
  settings: Settings,
  cpus: number,
): Promise<{ record: ScenarioRecord; serverLog: ServerLogSummary; logFile: string }> {
  const logFile = path.join(PROJECT_ROOT, 'bench', `server-${scenario.name}.log`);
  const setup = await scenario.ownServer(log);
  try {
    log(`${scenario.name}: starting its own server (${setup.description}) ...`);
    const server = await startServer({ adminDatabaseUrl: settings.adminDatabaseUrl, logFile, log, extraEnv: setup.env });
    let serverLog: ServerLogSummary;
    let record: ScenarioRecord;
    try {
      const readyRss = await readRssMb(server.pid);
      record = await runScenario(scenario, makeContext(server, settings, null), server.pid, cpus);
      record.ownServer = `${setup.description}; RSS when ready ${num(readyRss, 0)} MB; log ${path.relative(process.cwd(), logFile)}`;
    } finally {
      serverLog = server.logSummary();
      log(`${scenario.name}: stopping its server and removing its scratch data`);
      await server.stop();
    }
    return { record, serverLog, logFile };
  } finally {
    await setup.stop();
  }
}

async function runScenario(scenario: Scenario, ctx: ScenarioContext, pid: number, cpus: number): Promise<ScenarioRecord> {
  log(`${scenario.name}: ${scenario.description}`);
  const rssBefore = await readRssMb(pid);
  const sampler = sampleRss(pid);
  let result: ScenarioResult | null = null;
  let failure: string | null = null;
  try {
    result = await scenario.run(ctx);
    const problems: string[] = [];
    if (result.errors > 0) problems.push(`${result.errors} request errors or timeouts`);
    if (result.non2xx > 0) {
      const codes = Object.entries(result.statusCodes)
        .filter(([code]) => !code.startsWith('2'))
        .map(([code, count]) => `${count} x HTTP ${code}`);
      problems.push(`non-2xx responses: ${codes.join(', ')}`);
    }
    if (result.requests === 0) problems.push('no request completed');
    if (problems.length > 0) failure = problems.join('; ');
  } catch (error) {
    failure = error instanceof Error ? error.message : String(error);
  }
  const peak = await sampler.stop();
  const verdict = judge(scenario.budget, result, peak, ctx.database, cpus);
  const record: ScenarioRecord = {
    name: scenario.name,
    description: scenario.description,
    status: failure ? 'failed' : 'ok',
    failure,
    result,
    rssBeforeMb: rssBefore === null ? null : round(rssBefore, 1),
    peakRssMb: peak === null ? null : round(peak, 1),
    budget: scenario.budget ?? null,
    verdict,
    ceiling: ceilingOf(result),
    noCeiling: scenario.noCeiling ?? null,
  };
  log(
    failure
      ? `${scenario.name}: FAILED: ${failure}`
      : `${scenario.name}: ${num(result?.throughput)} ${result?.unit ?? ''}, p99 ${num(result?.latencyMs.p99, 2)} ms`,
  );
  return record;
}

const DATABASE_LABEL: Record<DatabaseKind, string> = { pglite: 'PGlite (embedded)', postgres: 'PostgreSQL' };

interface ReportInput {
  facts: MachineFacts;
  records: readonly ScenarioRecord[];
  database: DatabaseKind;
  databaseVersion: string | null;
  settings: Settings;
  serverLog: ServerLogSummary;
  logFile: string;
  readyRssMb: number | null;
  dataset: DatasetInfo | null;
  /** The servers of the scenarios that had their own. */
  ownServerLogs: ReadonlyArray<{ name: string; log: ServerLogSummary; file: string }>;
}

function report({ facts, records, database, databaseVersion, settings, serverLog, logFile, readyRssMb, dataset, ownServerLogs }: ReportInput): string {
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
    lines.push('Database: embedded PGlite. DESIGN budgets for API reads are set on PostgreSQL; run with BENCH_DATABASE_URL to check them.');
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
    'bare ceiling: the bare baseline measured in this run (docs/architecture.md, "Budgets"), beside the product\'s figure; ratio: "N% thr" = the product\'s ' +
      'throughput as a share of the bare route\'s under the same load (DESIGN: >= 80% for reads and uploads), "Nx time" = the product\'s time ' +
      'over the bare work\'s (DESIGN: <= 3x PDF, <= 1.5x Excel); p99 ratio = the product\'s p99 over the bare route\'s',
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

async function main(): Promise<number> {
  let settings: Settings;
  try {
    const read = readSettings(process.argv.slice(2));
    if (read === 'list') {
      for (const s of scenarios) console.log(`${s.name.padEnd(22)} ${s.description}`);
      return 0;
    }
    settings = read;
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`bench: ${error.message}`);
      return 2;
    }
    throw error;
  }

  const facts = machineFacts();
  const logFile = path.join(PROJECT_ROOT, 'bench', 'server.log');
  log(`starting the built server on ${settings.adminDatabaseUrl ? 'a scratch PostgreSQL database' : 'a scratch PGlite data dir'} ...`);
  let dataset: DatasetInfo | null = null;
  const needsRecords = settings.selected.some((s) => s.dataset === 'records');
  // The generated records go in before the server starts: the embedded PGlite admits one
  // process at a time. The demo seed is run first (as the server would) for its curves.
  const prepare = async ({ databaseUrl, dataDir }: { databaseUrl: string | undefined; dataDir: string }) => {
    if (needsRecords) {
      log(`loading ${settings.inspections} generated inspections (curves topped up to ${settings.curves}) ...`);
      const summary = await loadBenchData({
        databaseUrl,
        dataDir,
        count: settings.inspections,
        curves: settings.curves,
        demo: true,
        timeZone: process.env.APP_TIMEZONE?.trim() || undefined,
        log: (message) => log(`data: ${message}`),
      });
      for (const line of describeSummary(summary).split('\n')) log(`data: ${line}`);
      dataset = {
        name: 'records',
        inspections: summary.inspectionsTotal,
        curves: summary.curvesTotal,
        photos: summary.photos.length,
        loadSeconds: Math.round(summary.seconds.total * 10) / 10,
        generated: { count: settings.inspections, curves: settings.curves },
      };
    }
    if (settings.prepareSql) {
      const script = await readFile(settings.prepareSql, 'utf8');
      const target = await openTarget({ databaseUrl, dataDir });
      try {
        const started = performance.now();
        await target.exec(script);
        log(`ran ${path.relative(process.cwd(), settings.prepareSql)} (BENCH_PREPARE_SQL) in ${((performance.now() - started) / 1000).toFixed(1)} s`);
      } finally {
        await target.close();
      }
    }
  };
  const server = await startServer({
    adminDatabaseUrl: settings.adminDatabaseUrl,
    logFile,
    log,
    prepare: needsRecords || settings.prepareSql ? prepare : undefined,
  });
  const readyRss = await readRssMb(server.pid);
  const readyRssMb = readyRss === null ? null : round(readyRss, 1);

  let stopping: Promise<void> | null = null;
  const stop = () => (stopping ??= server.stop());
  const interrupted = (signal: NodeJS.Signals) => {
    log(`${signal}: stopping the server and removing the scratch data`);
    void stop().finally(() => process.exit(130));
  };
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);

  const records: ScenarioRecord[] = [];
  const ownServerLogs: Array<{ name: string; log: ServerLogSummary; file: string }> = [];
  let serverLog: ServerLogSummary;
  try {
    const ctx = makeContext(server, settings, dataset);
    for (const scenario of settings.selected) {
      const { ownServer } = scenario;
      if (!ownServer) {
        records.push(await runScenario(scenario, ctx, server.pid, facts.cpus.count));
        continue;
      }
      try {
        const own = await runOnOwnServer({ ...scenario, ownServer }, settings, facts.cpus.count);
        records.push(own.record);
        ownServerLogs.push({ name: scenario.name, log: own.serverLog, file: own.logFile });
      } catch (error) {
        // Its service or its server did not start: the scenario failed, the run goes on.
        const failure = `its own server: ${error instanceof Error ? error.message : String(error)}`;
        log(`${scenario.name}: FAILED: ${failure}`);
        records.push({
          name: scenario.name,
          description: scenario.description,
          status: 'failed',
          failure,
          result: null,
          rssBeforeMb: null,
          peakRssMb: null,
          budget: scenario.budget ?? null,
          verdict: judge(scenario.budget, null, null, server.database, facts.cpus.count),
          ceiling: null,
          noCeiling: scenario.noCeiling ?? null,
        });
      }
    }
  } finally {
    serverLog = server.logSummary();
    log('stopping the server and removing the scratch data');
    await stop();
  }

  console.log(
    report({
      facts,
      records,
      database: server.database,
      databaseVersion: server.databaseVersion,
      settings,
      serverLog,
      logFile,
      readyRssMb,
      dataset,
      ownServerLogs,
    }),
  );

  const failed = records.filter((r) => r.status === 'failed').map((r) => r.name);
  const overBudget = records.filter((r) => r.verdict.kind === 'fail').map((r) => r.name);
  const results = {
    ...facts,
    database: { kind: server.database, version: server.databaseVersion },
    serverRssWhenReadyMb: readyRssMb,
    dataset,
    prepareSql: settings.prepareSql ?? null,
    settings: {
      durationSeconds: settings.durationSeconds,
      warmupSeconds: settings.warmupSeconds,
      connectionsOverride: settings.connectionsOverride ?? null,
    },
    passed: failed.length === 0 && overBudget.length === 0,
    serverLog: { warnings: serverLog.warnings, errors: serverLog.errors, recent: serverLog.recent },
    ownServerLogs: ownServerLogs.map((own) => ({ scenario: own.name, warnings: own.log.warnings, errors: own.log.errors, recent: own.log.recent })),
    scenarios: records,
  };
  await writeFile(settings.resultsFile, `${JSON.stringify(results, null, 2)}\n`);
  console.log(`\nWrote ${path.relative(process.cwd(), settings.resultsFile)}`);

  if (failed.length > 0) console.error(`bench: failed: ${failed.join(', ')}`);
  if (overBudget.length > 0) console.error(`bench: over budget: ${overBudget.join(', ')}`);
  return failed.length > 0 || overBudget.length > 0 ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`bench: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
