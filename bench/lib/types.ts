/** The contract between the runner (bench/run.ts) and a scenario: a scenario measures; the runner samples memory and judges. */
import type { DEMO_ACCOUNTS } from '../../server/db/seed/demo-accounts.js';
import type { LatencySummary } from './stats.js';

export type { LatencySummary };
export type DatabaseKind = 'pglite' | 'postgres';

export interface ScenarioResult {
  unit: string;
  connections: number | null;
  durationSeconds: number;
  requests: number;
  throughput: number;
  latencyMs: LatencySummary;
  non2xx: number;
  errors: number;
  statusCodes: Record<string, number>;
  notes: string[];
  baseline?: BaselineComparison;
  throughputBaseline?: ThroughputBaseline;
}

export interface ThroughputBaseline {
  description: string;
  throughput: number;
  p99Ms: number;
  p50Ms?: number;
}

export interface BaselineComparison {
  description: string;
  productSeconds: number;
  baselineSeconds: number;
  productRssRiseMb?: number;
  baselineRssRiseMb?: number;
}

export interface Budget {
  description: string;
  minThroughput?: number;
  maxDurationSeconds?: number;
  maxPeakRssMb?: number;
  maxRatioToBaseline?: number;
  maxRssRatioToBaseline?: number;
  minThroughputRatioToBaseline?: number;
  /** The result's p99 over its `throughputBaseline.p99Ms` (the same load without the work under test, same run). */
  maxP99RatioToBaseline?: number;
  /** The slowest answer of the result's load. */
  maxLatencyMs?: number;
  database?: DatabaseKind;
  connections?: number;
  cpus?: number;
}

export type DatasetName = 'records';

export interface DatasetInfo {
  name: DatasetName;
  inspections: number;
  curves: number;
  photos: number;
  loadSeconds: number;
  generated: { count: number; curves: number };
}

export type DemoAccount = (typeof DEMO_ACCOUNTS)[number];

export interface ScenarioContext {
  baseUrl: string;
  database: DatabaseKind;
  durationSeconds: number;
  warmupSeconds: number;
  connections(scenarioDefault: number): number;
  signIn(employeeId: string, password?: string): Promise<string>;
  demo: { password: string; byRole(role: DemoAccount['role']): DemoAccount };
  log(message: string): void;
  serverPid: number;
  dataDir: string;
  databaseUrl: string | undefined;
  dataset: DatasetInfo | null;
  serverEnv: Readonly<NodeJS.ProcessEnv>;
}

export interface OwnServerSetup {
  env: Record<string, string>;
  description: string;
  stop(): Promise<void>;
}

export interface Scenario {
  name: string;
  description: string;
  budget?: Budget;
  noCeiling?: string;
  dataset?: DatasetName;
  ownServer?: (log: (message: string) => void) => Promise<OwnServerSetup>;
  run(ctx: ScenarioContext): Promise<ScenarioResult>;
}
