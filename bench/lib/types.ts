/**
 * The contract between the runner (bench/run.ts) and a scenario (bench/scenarios/*.ts).
 * A scenario measures one thing against the running server and returns its figures; the
 * runner samples the server's memory around it, applies the budget and prints the table.
 */

export type DatabaseKind = 'pglite' | 'postgres';

export interface LatencySummary {
  p50: number;
  p90: number;
  p99: number;
  max: number;
  mean: number;
}

export interface ScenarioResult {
  /** What one unit of throughput is: 'req/s', 'logins/s', 'uploads/s', 'reports/s' ... */
  unit: string;
  /** Concurrent connections (or workers) used; null for a one-at-a-time timer. */
  connections: number | null;
  /** Measured wall time of the measured part, in seconds (warm-up not included). */
  durationSeconds: number;
  /** Completed requests (or operations), whatever their status. */
  requests: number;
  /** Completed operations per second. */
  throughput: number;
  /** Latency of the successful (2xx) operations, in milliseconds. */
  latencyMs: LatencySummary;
  /** Responses with a status outside 200-299. */
  non2xx: number;
  /** Transport errors and timeouts: requests that got no response at all. */
  errors: number;
  /** Count of responses per HTTP status. */
  statusCodes: Record<string, number>;
  /** Anything a reader of the table should know (shown under the table and in results.json). */
  notes: string[];
  /** The bare baseline measured in the same run (docs/architecture.md, 'Budgets'), for budgets read as a ratio to it. */
  baseline?: BaselineComparison;
  /** A bare baseline's throughput under the same load in the same run, for `minThroughputRatioToBaseline`. */
  throughputBaseline?: ThroughputBaseline;
}

/** The same load (connections, duration) on a bare route doing the least the product's route could. */
export interface ThroughputBaseline {
  /** What the bare route does, e.g. 'bare Fastify + Drizzle, one indexed page of 50 curves'. */
  description: string;
  /** Completed requests per second of the bare route. */
  throughput: number;
  /** Its p99 latency, ms (printed beside, not judged). */
  p99Ms: number;
  /** Its p50 latency, ms, when known. */
  p50Ms?: number;
}

/**
 * The bare ceiling a scenario is held against, in one shape for the table's columns and
 * results.json whichever kind of baseline the scenario measured. The runner derives it
 * (lib/ceiling.ts) from the result's `throughputBaseline` (the same load on a bare route:
 * kind 'throughput') or else its `baseline` (the same work done bare and timed: kind 'time').
 */
export interface Ceiling {
  kind: 'throughput' | 'time';
  /** What the bare baseline does. */
  description: string;
  /** The figure the ratio compares: throughput in `unit` (kind 'throughput') or seconds (kind 'time'). */
  unit: string;
  /** The bare baseline's figure. */
  bare: number;
  /** The product's figure it is compared with. */
  product: number;
  /**
   * product / bare. Kind 'throughput': the share of the bare route's throughput the product
   * reaches (budget: >= 0.8 for reads and uploads); kind 'time': how many times the bare
   * baseline's time the product takes (budget: <= 3 for the PDF report, <= 1.5 for Excel).
   */
  ratio: number;
  /** Kind 'throughput': the bare route's p99 under the same load, ms. */
  bareP99Ms: number | null;
  /** The product's p99 over the bare route's (kind 'throughput'). */
  p99Ratio: number | null;
  /** Kind 'time', when measured: the product's peak RSS rise over the bare baseline's. */
  rssRiseRatio: number | null;
}

/**
 * A product figure beside the same work done bare (a library alone, no app around it), both
 * timed in the same run on the same machine: their ratio is what the budget table's budgets judge.
 */
export interface BaselineComparison {
  /** What the baseline does, e.g. 'exceljs WorkbookWriter, the same 100,000 rows'. */
  description: string;
  /** The product's time for the work the budget is about (e.g. the median full export), seconds. */
  productSeconds: number;
  baselineSeconds: number;
  /** Peak RSS rise of the server over the measured work (median of the runs), MB: for `maxRssRatioToBaseline`. */
  productRssRiseMb?: number;
  /** Peak RSS rise of the process running the baseline over the same work, MB. */
  baselineRssRiseMb?: number;
}

/**
 * A performance budget, from docs/architecture.md, 'Budgets'. Every limit given must hold for a pass.
 * A budget that names a database or a connection count applies only to runs that match.
 */
export interface Budget {
  /** As the design states it, e.g. 'API reads: p99 <= 50 ms at 50 connections on PostgreSQL'. */
  description: string;
  maxP99Ms?: number;
  minThroughput?: number;
  /** For timed scenarios: the whole measured part must finish within this. */
  maxDurationSeconds?: number;
  maxPeakRssMb?: number;
  /** The result's `baseline.productSeconds` may be at most this many times its `baselineSeconds`. */
  maxRatioToBaseline?: number;
  /** The result's `baseline.productRssRiseMb` may be at most this many times its `baselineRssRiseMb`. */
  maxRssRatioToBaseline?: number;
  /** The result's throughput must be at least this fraction of its `throughputBaseline.throughput` (0.8 = 80 %). */
  minThroughputRatioToBaseline?: number;
  /** The budget is defined on this database only. */
  database?: DatabaseKind;
  /** The budget is defined at this concurrency only. */
  connections?: number;
  /** The budget is defined for a machine with this many CPUs (the server and the load generator share them). */
  cpus?: number;
}

export interface DemoAccount {
  employeeId: string;
  role: string;
}

/**
 * Data a scenario needs beyond the demo seed. 'records': the generated inspection records
 * (the scale seed, server/db/seed/scale/; 100k by default, with the curve register topped up to
 * 10k), loaded once into the scratch database before the server starts.
 */
export type DatasetName = 'records';

/** What the runner loaded for the run (null when no selected scenario asked for data). */
export interface DatasetInfo {
  name: DatasetName;
  inspections: number;
  curves: number;
  /** Distinct photos the generated records point at (real JPEGs in DATA_DIR/blobs). */
  photos: number;
  /** Seconds to generate and load everything (photos, curves, inspections, ANALYZE). */
  loadSeconds: number;
  /** What the generator was asked for (BENCH_INSPECTIONS, BENCH_CURVES): enough to make the same data again elsewhere. */
  generated: { count: number; curves: number };
}

export interface ScenarioContext {
  /** e.g. http://127.0.0.1:41234 (no trailing slash). */
  baseUrl: string;
  database: DatabaseKind;
  /** Seconds each load phase should last (BENCH_DURATION, default 5). */
  durationSeconds: number;
  /** Seconds of unmeasured warm-up before a load phase (BENCH_WARMUP, default 1). */
  warmupSeconds: number;
  /** The scenario's own connection count unless BENCH_CONNECTIONS overrides every scenario's. */
  connections(scenarioDefault: number): number;
  /** Signs in through POST /api/auth/login and returns the value for a `Cookie` header. */
  signIn(employeeId: string, password?: string): Promise<string>;
  /** The demo seed's sign-ins (the server runs with DEMO=1). */
  demo: { password: string; accounts: readonly DemoAccount[]; byRole(role: string): DemoAccount };
  /** A progress line on stderr. */
  log(message: string): void;
  /** The server process, e.g. to read its memory or CPU time at points of a scenario. */
  serverPid: number;
  /** The server's scratch DATA_DIR (photos are under blobs/). */
  dataDir: string;
  /** The scratch PostgreSQL database the server uses (e.g. for a baseline in the same database); undefined on PGlite. */
  databaseUrl: string | undefined;
  /** The generated data loaded for this run, if any scenario asked for it. */
  dataset: DatasetInfo | null;
  /**
   * The whole environment the server was started with (DATA_DIR, DATABASE_URL on PostgreSQL,
   * BLOB_STORE ...): for a command run beside it as an operator would, e.g. `npm run backup`.
   */
  serverEnv: Readonly<NodeJS.ProcessEnv>;
}

/**
 * What a scenario with a server of its own (`Scenario.ownServer`) needs started first: a
 * service the server uses (an S3-compatible store) and the environment that points it there.
 */
export interface OwnServerSetup {
  /** Added to the bench server's environment, e.g. BLOB_STORE=s3 and the S3_* settings. */
  env: Record<string, string>;
  /** For the report, e.g. 'BLOB_STORE=s3 on s3rver 3.7 (local disk)'. */
  description: string;
  /** Ends the service; called after the scenario's server has stopped. */
  stop(): Promise<void>;
}

export interface Scenario {
  /** Kebab-case; what `npm run bench -- <name>` selects. */
  name: string;
  description: string;
  budget?: Budget;
  /**
   * Why the scenario has no bare ceiling, when it has none (every load scenario has one:
   * `throughputBaseline` or `baseline` in its result). Printed under the table.
   */
  noCeiling?: string;
  /** Data to load before the server starts (once per run, shared by every scenario that names it). */
  dataset?: DatasetName;
  /**
   * The scenario runs against a server of its own, started with more environment (e.g. photos
   * in an S3-compatible store): the runner calls this, then starts another bench server (its own
   * scratch DATA_DIR and database, the demo seed, no generated data) with `env` added, runs the
   * scenario against it (its memory sampled, its log in bench/server-<name>.log), stops it and
   * calls `stop()`. Not together with `dataset`.
   */
  ownServer?: (log: (message: string) => void) => Promise<OwnServerSetup>;
  run(ctx: ScenarioContext): Promise<ScenarioResult>;
}

export type Verdict =
  | { kind: 'none' }
  | { kind: 'pass'; detail: string }
  | { kind: 'fail'; detail: string }
  | { kind: 'not-applicable'; detail: string };

/** What the runner records for each scenario (and writes to results.json). */
export interface ScenarioRecord {
  name: string;
  description: string;
  status: 'ok' | 'failed';
  /** Why the scenario failed: errors, non-2xx responses or an exception. */
  failure: string | null;
  result: ScenarioResult | null;
  /** Server RSS just before the scenario started, in MB. */
  rssBeforeMb: number | null;
  /** Highest server RSS seen while the scenario ran (sampled every ~50 ms), in MB. */
  peakRssMb: number | null;
  budget: Budget | null;
  verdict: Verdict;
  /** The bare ceiling measured in the same run and the product's ratio to it (null: none; see `noCeiling`). */
  ceiling: Ceiling | null;
  /** Why there is no bare ceiling (the scenario's `noCeiling`), or null. */
  noCeiling: string | null;
  /** Set when the scenario ran against a server of its own (`Scenario.ownServer`): what it was. */
  ownServer?: string;
}
