/**
 * Opens the app's database as the server would (migrations applied) and loads the scale seed
 * into it: the demo seed first when asked (for its curves and sign-ins), then the generated
 * records. What the seed command (./cli.ts) and the bench runner call.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { dateInTimeZone } from '../../../../common/rules/dates.js';
import { DiskBlobStore } from '../../../storage/disk-blob-store.js';
import { openDatabase, type Database } from '../../client.js';
import { lockDataDir } from '../../data-dir-lock.js';
import { fileFollowUpActions, seedDemoData } from '../index.js';
import type { SqlClient } from './columns.js';
import { generateInspections, type GenerateOptions, type GenerateSummary } from './generate.js';
import { topUpCurveRecords } from './rollout.js';

const APP_TIME_ZONE_DEFAULT = 'Asia/Kolkata';

/** A pg connection behind the seed's SqlClient. */
export const sqlClientOf = (raw: pg.Client): SqlClient => ({ query: async <R>(text: string, params?: unknown[]) => (await raw.query(text, params)).rows as R[] });

export interface Target {
  kind: 'postgres' | 'pglite';
  /** The app's own database handle (migrations, demo seed). */
  database: Database;
  client: SqlClient;
  /** Runs a script of several statements (no parameters). */
  exec(sql: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * Opens the app's database as the server would and applies its migrations: PostgreSQL given a
 * URL, else the embedded PGlite under dataDir/pglite (which no server may hold open).
 */
export async function openTarget(options: { databaseUrl?: string | undefined; dataDir: string }): Promise<Target> {
  if (options.databaseUrl) {
    const database = await openDatabase({ databaseUrl: options.databaseUrl, poolSize: 2 });
    await database.migrate();
    const raw = new pg.Client({ connectionString: options.databaseUrl });
    await raw.connect();
    return {
      kind: 'postgres',
      database,
      client: sqlClientOf(raw),
      async exec(sql) {
        await raw.query(sql);
      },
      async close() {
        await raw.end();
        await database.close();
      },
    };
  }
  const dir = path.join(options.dataDir, 'pglite');
  mkdirSync(dir, { recursive: true });
  const unlock = lockDataDir(path.join(options.dataDir, 'pglite.lock'));
  try {
    const pglite = await PGlite.create(dir);
    const database = await openDatabase({ pglite });
    await database.migrate();
    return {
      kind: 'pglite',
      database,
      client: { query: async <R>(text: string, params?: unknown[]) => (await pglite.query<R>(text, params)).rows },
      async exec(sql) {
        await pglite.exec(sql);
      },
      async close() {
        await database.close();
        unlock();
      },
    };
  } catch (error) {
    unlock();
    throw error;
  }
}

export type ScaleSummary = GenerateSummary & { actions: { open: number; closed: number; seconds: number } };

/**
 * The generated records, then the follow-up actions their visits open and close, filed by the
 * upload's own rule in the order of visits (the records go in by SQL, which files none).
 */
export async function generateWithActions(database: Database, client: SqlClient, options: GenerateOptions): Promise<ScaleSummary> {
  const [last] = await client.query<{ id: number | null }>('select max(id) as id from inspection_logs');
  const summary = await generateInspections(client, options);
  const started = performance.now();
  await fileFollowUpActions(database.db, { today: options.today, afterId: Number(last?.id ?? 0), perTransaction: 1_000 });
  await client.query('vacuum (analyze) follow_up_actions, follow_up_action_events');
  const [counts] = await client.query<{ open: number; closed: number }>(
    "select count(*) filter (where state = 'open')::int as open, count(*) filter (where state = 'closed')::int as closed from follow_up_actions",
  );
  const seconds = (performance.now() - started) / 1000;
  options.log?.(`follow-up actions: ${counts?.open ?? 0} open, ${counts?.closed ?? 0} closed (${seconds.toFixed(1)} s)`);
  summary.seconds.total += seconds;
  return { ...summary, actions: { open: counts?.open ?? 0, closed: counts?.closed ?? 0, seconds } };
}

export interface LoadOptions extends Omit<GenerateOptions, 'blobsDir' | 'today'> {
  databaseUrl?: string | undefined;
  dataDir: string;
  /** Seed the demo data first (sign-ins, curves, stations) if the database has no curves. */
  demo?: boolean;
  /** Top the machine rollout sheet (curve_records) up to this many records, one per curve (./rollout.ts). */
  curveRecords?: number | undefined;
  /** The railway's time zone for "today" (default APP_TIMEZONE or Asia/Kolkata). */
  timeZone?: string | undefined;
}

/** Migrate, optionally seed the demo, generate: what the CLI and the bench runner do. */
export async function loadScaledData(options: LoadOptions): Promise<ScaleSummary & { kind: 'postgres' | 'pglite' }> {
  const target = await openTarget(options);
  try {
    const today = dateInTimeZone(new Date(), options.timeZone ?? APP_TIME_ZONE_DEFAULT);
    const blobsDir = path.join(options.dataDir, 'blobs');
    if (options.demo) await seedDemoData(target.database.db, new DiskBlobStore(blobsDir), { today });
    const summary = await generateWithActions(target.database, target.client, { ...options, today, blobsDir });
    if (options.curveRecords !== undefined) {
      const added = await topUpCurveRecords(target.client, options.curveRecords, today);
      options.log?.(`curve records: ${added.length} added`);
    }
    return { ...summary, kind: target.kind };
  } finally {
    await target.close();
  }
}

export function describeSummary(summary: ScaleSummary): string {
  const divisions = Object.entries(summary.byDivision)
    .sort((a, b) => b[1] - a[1])
    .map(([d, n]) => `${d} ${n}`)
    .join(', ');
  const types = Object.entries(summary.byType)
    .map(([t, n]) => `${t} ${n}`)
    .join(', ');
  return [
    `added ${summary.inspectionsAdded} inspection records (${types}; ${divisions}), dates ${summary.dateRange?.join(' .. ') ?? '-'}`,
    `inspection_logs now ${summary.inspectionsTotal} rows; consolidated_curve_details ${summary.curvesTotal} rows (${summary.curvesAdded} added)`,
    `follow-up actions now ${summary.actions.open} open, ${summary.actions.closed} closed`,
    `${summary.photos.length} photos; seconds: photos ${summary.seconds.photos.toFixed(1)}, curves ${summary.seconds.curves.toFixed(1)}, ` +
      `inspections ${summary.seconds.inspections.toFixed(1)}, analyze ${summary.seconds.analyze.toFixed(1)}, actions ${summary.actions.seconds.toFixed(1)}, total ${summary.seconds.total.toFixed(1)}`,
  ].join('\n');
}

