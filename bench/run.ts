/**
 * `npm run bench [-- <scenario> ...]`: starts the built server on a scratch database with the demo seed, runs the scenarios,
 * prints a table and writes bench/results.json. Exit 1: errors or a failed budget; 2: a bad argument (bench/README.md).
 */
import { writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { SESSION_COOKIE } from '../common/constants.js';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from '../server/db/seed/demo-accounts.js';
import { describeSummary, loadScaledData } from '../server/db/seed/scale/load.js';
import { readRssMb, recordRss } from './lib/memory.js';
import { ceilingOf, judge, report, type RunResults, type ScenarioRecord } from './lib/report.js';
import { PROJECT_ROOT, type RunningServer, serverLogFile, type ServerLogSummary, startServer } from './lib/server.js';
import { round } from './lib/stats.js';
import { num } from './lib/table.js';
import { numberVariable, UsageError, variable } from './lib/variables.js';
import type { DatabaseKind, DatasetInfo, Scenario, ScenarioContext, ScenarioResult } from './lib/types.js';
import { scenarios } from './scenarios/index.js';

const log = (message: string) => process.stderr.write(`[bench] ${message}\n`);
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

function readSettings(argv: readonly string[]) {
  if (argv.includes('--list') || argv.includes('-l')) return 'list';
  const flags = argv.filter((a) => a.startsWith('-'));
  if (flags.length > 0) throw new UsageError(`unknown option ${flags.join(' ')} (scenario names, or --list)`);
  const unknown = argv.filter((name) => !scenarios.some((s) => s.name === name));
  if (unknown.length > 0) throw new UsageError(`unknown scenario ${unknown.join(', ')}; known: ${scenarios.map((s) => s.name).join(', ')}`);
  const adminDatabaseUrl = variable('BENCH_DATABASE_URL');
  if (adminDatabaseUrl && !/^postgres(ql)?:\/\//.test(adminDatabaseUrl)) throw new UsageError('BENCH_DATABASE_URL must start with postgres:// or postgresql://');
  return {
    selected: argv.length > 0 ? scenarios.filter((s) => argv.includes(s.name)) : scenarios,
    durationSeconds: numberVariable('BENCH_DURATION', 5),
    warmupSeconds: numberVariable('BENCH_WARMUP', 1, { allowZero: true }),
    connectionsOverride: variable('BENCH_CONNECTIONS') ? numberVariable('BENCH_CONNECTIONS', 1, { integer: true }) : undefined,
    adminDatabaseUrl,
    resultsFile: path.resolve(variable('BENCH_RESULTS') ?? path.join(PROJECT_ROOT, 'bench', 'results.json')),
    inspections: numberVariable('BENCH_INSPECTIONS', 100_000, { integer: true }),
    curves: numberVariable('BENCH_CURVES', 10_000, { integer: true }),
  };
}

type Settings = Exclude<ReturnType<typeof readSettings>, 'list'>;

async function signIn(baseUrl: string, employeeId: string, password: string): Promise<string> {
  const response = await fetch(`${baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ employeeId, password }),
    signal: AbortSignal.timeout(30_000),
  });
  if (response.status !== 200) throw new Error(`sign-in as ${employeeId} answered HTTP ${response.status}: ${(await response.text()).slice(0, 300)}`);
  const cookie = response.headers.getSetCookie().find((header) => header.startsWith(`${SESSION_COOKIE}=`));
  if (!cookie) throw new Error(`sign-in as ${employeeId} answered 200 without a ${SESSION_COOKIE} cookie`);
  return cookie.split(';')[0] ?? cookie;
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

type Outcome = Pick<ScenarioRecord, 'failure' | 'result' | 'rssBeforeMb' | 'peakRssMb'>;

function recordOf(scenario: Scenario, outcome: Outcome, database: DatabaseKind, cpus: number): ScenarioRecord {
  const { result, failure, peakRssMb } = outcome;
  return {
    name: scenario.name,
    description: scenario.description,
    status: failure ? 'failed' : 'ok',
    ...outcome,
    budget: scenario.budget ?? null,
    verdict: judge(scenario.budget, result, peakRssMb, database, cpus),
    ceiling: ceilingOf(result),
    noCeiling: scenario.noCeiling ?? null,
  };
}

async function measure(scenario: Scenario, ctx: ScenarioContext, cpus: number): Promise<ScenarioRecord> {
  log(`${scenario.name}: ${scenario.description}`);
  const rssBefore = await readRssMb(ctx.serverPid);
  const recorder = recordRss(ctx.serverPid, 50);
  let result: ScenarioResult | null = null;
  let failure: string | null = null;
  try {
    result = await scenario.run(ctx);
    const non2xx = Object.entries(result.statusCodes).filter(([code]) => !code.startsWith('2'));
    const problems = [
      result.errors > 0 ? `${result.errors} request errors or timeouts` : '',
      result.non2xx > 0 ? `non-2xx responses: ${non2xx.map(([code, count]) => `${count} x HTTP ${code}`).join(', ')}` : '',
      result.requests === 0 ? 'no request completed' : '',
    ].filter(Boolean);
    failure = problems.join('; ') || null;
  } catch (error) {
    failure = messageOf(error);
  }
  const samples = await recorder.stop();
  const peak = samples.length > 0 ? Math.max(...samples.map((s) => s.mb)) : null;
  const rssBeforeMb = rssBefore === null ? null : round(rssBefore, 1);
  const record = recordOf(scenario, { failure, result, rssBeforeMb, peakRssMb: peak === null ? null : round(peak, 1) }, ctx.database, cpus);
  log(failure ? `${scenario.name}: FAILED: ${failure}` : `${scenario.name}: ${num(result?.throughput)} ${result?.unit ?? ''}, p99 ${num(result?.latencyMs.p99, 2)} ms`);
  return record;
}

async function measureOnOwnServer(
  scenario: Scenario,
  ownServer: NonNullable<Scenario['ownServer']>,
  settings: Settings,
  database: DatabaseKind,
  cpus: number,
): Promise<{ record: ScenarioRecord; serverLog?: ServerLogSummary }> {
  const logFile = serverLogFile(scenario.name);
  try {
    const setup = await ownServer(log);
    try {
      log(`${scenario.name}: starting its own server (${setup.description}) ...`);
      const server = await startServer({ adminDatabaseUrl: settings.adminDatabaseUrl, logFile, log, extraEnv: setup.env });
      try {
        const readyRss = await readRssMb(server.pid);
        const record = await measure(scenario, makeContext(server, settings, null), cpus);
        record.ownServer = `${setup.description}; RSS when ready ${num(readyRss, 0)} MB; log ${path.relative(process.cwd(), logFile)}`;
        return { record, serverLog: server.logSummary() };
      } finally {
        log(`${scenario.name}: stopping its server and removing its scratch data`);
        await server.stop();
      }
    } finally {
      await setup.stop();
    }
  } catch (error) {
    const failure = `its own server: ${messageOf(error)}`;
    log(`${scenario.name}: FAILED: ${failure}`);
    return { record: recordOf(scenario, { failure, result: null, rssBeforeMb: null, peakRssMb: null }, database, cpus) };
  }
}

// Before the server starts: the embedded PGlite admits one process at a time.
async function prepareDatabase(settings: Settings, target: { databaseUrl: string | undefined; dataDir: string }): Promise<DatasetInfo | null> {
  if (!settings.selected.some((s) => s.dataset === 'records')) return null;
  const { inspections: count, curves } = settings;
  log(`loading ${count} generated inspections (curves topped up to ${curves}) ...`);
  const timeZone = variable('APP_TIMEZONE');
  const summary = await loadScaledData({ ...target, count, curves, demo: true, timeZone, log: (message) => log(`data: ${message}`) });
  for (const line of describeSummary(summary).split('\n')) log(`data: ${line}`);
  const { inspectionsTotal: inspections, curvesTotal, photos, seconds } = summary;
  return { name: 'records', inspections, curves: curvesTotal, photos: photos.length, loadSeconds: round(seconds.total, 1), generated: { count, curves } };
}

function machineFacts() {
  return {
    date: new Date().toISOString(),
    node: process.version,
    cpus: { count: os.availableParallelism(), model: os.cpus()[0]?.model.trim() ?? 'unknown' },
    totalMemoryMb: Math.round(os.totalmem() / 1024 / 1024),
    loadAverage: os.loadavg().map((l) => round(l, 2)),
  };
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
    if (!(error instanceof UsageError)) throw error;
    console.error(`bench: ${error.message}`);
    return 2;
  }
  const facts = machineFacts();
  log(`starting the built server on ${settings.adminDatabaseUrl ? 'a scratch PostgreSQL database' : 'a scratch PGlite data dir'} ...`);
  let dataset: DatasetInfo | null = null;
  const server = await startServer({
    adminDatabaseUrl: settings.adminDatabaseUrl,
    logFile: serverLogFile(),
    log,
    prepare: async (target) => {
      dataset = await prepareDatabase(settings, target);
    },
  });
  const readyRss = await readRssMb(server.pid);
  const interrupted = (signal: NodeJS.Signals) => {
    log(`${signal}: stopping the server and removing the scratch data`);
    void server.stop().finally(() => process.exit(130));
  };
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  const records: ScenarioRecord[] = [];
  const ownServerLogs: RunResults['ownServerLogs'] = [];
  let serverLog: RunResults['serverLog'];
  try {
    const ctx = makeContext(server, settings, dataset);
    for (const scenario of settings.selected) {
      const { ownServer } = scenario;
      const measured = ownServer
        ? await measureOnOwnServer(scenario, ownServer, settings, server.database, facts.cpus.count)
        : { record: await measure(scenario, ctx, facts.cpus.count) };
      records.push(measured.record);
      if (measured.serverLog) ownServerLogs.push({ scenario: scenario.name, ...measured.serverLog });
    }
  } finally {
    serverLog = server.logSummary();
    log('stopping the server and removing the scratch data');
    await server.stop();
  }
  const failed = records.filter((r) => r.status === 'failed').map((r) => r.name);
  const overBudget = records.filter((r) => r.verdict.kind === 'fail').map((r) => r.name);
  const results: RunResults = {
    ...facts,
    database: { kind: server.database, version: server.databaseVersion },
    serverRssWhenReadyMb: readyRss === null ? null : round(readyRss, 1),
    dataset,
    settings: { durationSeconds: settings.durationSeconds, warmupSeconds: settings.warmupSeconds, connectionsOverride: settings.connectionsOverride ?? null },
    passed: failed.length === 0 && overBudget.length === 0,
    serverLog,
    ownServerLogs,
    scenarios: records,
  };
  console.log(report(results));
  await writeFile(settings.resultsFile, `${JSON.stringify(results, null, 2)}\n`);
  console.log(`\nWrote ${path.relative(process.cwd(), settings.resultsFile)}`);
  if (failed.length > 0) console.error(`bench: failed: ${failed.join(', ')}`);
  if (overBudget.length > 0) console.error(`bench: over budget: ${overBudget.join(', ')}`);
  return results.passed ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`bench: ${messageOf(error)}`);
    process.exit(1);
  },
);
