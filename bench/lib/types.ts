/**
 * The contract between the runner (bench/run.ts) and a scenario (bench/scenarios/*.ts): a scenario
 * measures one thing against the running server and returns its figures; the runner samples the
 * server's memory around it, applies the budget and prints the table.
 */
import type { DEMO_ACCOUNTS } from '../../server/db/seed/demo-accounts.js';
import type { LatencySummary } from './stats.js';

export type { LatencySummary };
export type DatabaseKind = 'pglite' | 'postgres';

export interface ScenarioResult {
  /** 'req/s', 'logins/s', 'uploads/s' ... */
  unit: string;
  /** null for a one-at-a-time timer. */
  connections: number | null;
  /** Of the measured part (no warm-up). */
  durationSeconds: number;
  /** Completed, whatever their status. */
  requests: number;
  throughput: number;
  /** Of the successful (2xx) operations. */
  latencyMs: LatencySummary;
  non2xx: number;
  /** Transport errors and timeouts. */
  errors: number;
  statusCodes: Record<string, number>;
  notes: string[];
  /** The same work done bare, timed in the same run (for `maxRatioToBaseline`, `maxRssRatioToBaseline`). */
  baseline?: BaselineComparison;
  /** The same load on a bare route in the same run (for `minThroughputRatioToBaseline`). */
  throughputBaseline?: ThroughputBaseline;
}

export interface ThroughputBaseline {
  description: string;
  throughput: number;
  p99Ms: number;
  p50Ms?: number;
}

/** A product figure beside the same work done bare (a library alone, no app around it). */
export interface BaselineComparison {
  description: string;
  /** For the work the budget is about (e.g. the median full export). */
  productSeconds: number;
  baselineSeconds: number;
  productRssRiseMb?: number;
  baselineRssRiseMb?: number;
}

/**
 * A budget from docs/architecture.md, 'Budgets': every limit given must hold for a pass. One that
 * names a database, a connection count or a CPU count applies only to runs that match.
 */
export interface Budget {
  description: string;
  maxP99Ms?: number;
  minThroughput?: number;
  maxDurationSeconds?: number;
  maxPeakRssMb?: number;
  /** Of `baseline`: productSeconds / baselineSeconds. */
  maxRatioToBaseline?: number;
  /** Of `baseline`: productRssRiseMb / baselineRssRiseMb. */
  maxRssRatioToBaseline?: number;
  /** Of `throughputBaseline`: the share of its throughput (0.8 = 80 %). */
  minThroughputRatioToBaseline?: number;
  database?: DatabaseKind;
  connections?: number;
  cpus?: number;
}

/** 'records': the scale seed's generated records (server/db/seed/scale/), loaded before the server starts. */
export type DatasetName = 'records';

export interface DatasetInfo {
  name: DatasetName;
  inspections: number;
  curves: number;
  /** Distinct photo files. */
  photos: number;
  loadSeconds: number;
  /** What the generator was asked for (BENCH_INSPECTIONS, BENCH_CURVES): enough to make the same data again. */
  generated: { count: number; curves: number };
}

export type DemoAccount = (typeof DEMO_ACCOUNTS)[number];

export interface ScenarioContext {
  baseUrl: string;
  database: DatabaseKind;
  durationSeconds: number;
  warmupSeconds: number;
  /** The scenario's own connection count unless BENCH_CONNECTIONS overrides every scenario's. */
  connections(scenarioDefault: number): number;
  /** The value for a `Cookie` header. */
  signIn(employeeId: string, password?: string): Promise<string>;
  demo: { password: string; byRole(role: DemoAccount['role']): DemoAccount };
  log(message: string): void;
  serverPid: number;
  /** The server's scratch DATA_DIR (photos under blobs/). */
  dataDir: string;
  /** undefined on PGlite. */
  databaseUrl: string | undefined;
  dataset: DatasetInfo | null;
  /** The whole environment the server was started with, for a command run beside it (`npm run backup`). */
  serverEnv: Readonly<NodeJS.ProcessEnv>;
}

/** What a scenario with a server of its own needs started first, and the environment that points the server at it. */
export interface OwnServerSetup {
  env: Record<string, string>;
  description: string;
  /** Called after the scenario's server has stopped. */
  stop(): Promise<void>;
}

export interface Scenario {
  name: string;
  description: string;
  budget?: Budget;
  /** Why the scenario has no bare ceiling (printed under the table). */
  noCeiling?: string;
  dataset?: DatasetName;
  /**
   * The scenario runs against a second bench server (its own scratch data, the demo seed, no
   * generated data, its log in bench/server-<name>.log) started with the setup's `env` added.
   */
  ownServer?: (log: (message: string) => void) => Promise<OwnServerSetup>;
  run(ctx: ScenarioContext): Promise<ScenarioResult>;
}
