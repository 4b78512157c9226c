/**
 * The database a bare baseline reads, opened in the baseline's own process: on PostgreSQL the
 * server's scratch database, on PGlite (whose data dir the server holds) an in-memory PGlite made
 * by the app's migrations, optionally loaded by the scale seed exactly as the runner loaded the
 * server's (the demo seed first, then the same seed, day and sizes).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';
import { type Database, openDatabase } from '../../server/db/client.js';
import { seedDemoData } from '../../server/db/seed/index.js';
import { generateInspections } from '../../server/db/seed/scale/generate.js';
import { DiskBlobStore } from '../../server/storage/disk-blob-store.js';

export type BareDb = PgDatabase<PgQueryResultHKT>;

/** What the runner loaded into the server's database, for a PGlite copy made the same way. */
export interface GeneratedData {
  today: string;
  count: number;
  curves: number;
}

export const generatedDataEnv = (data: GeneratedData): Record<string, string> => ({
  BARE_TODAY: data.today,
  BARE_COUNT: String(data.count),
  BARE_CURVES: String(data.curves),
});

const generatedDataOf = (env: NodeJS.ProcessEnv): GeneratedData => ({
  today: env.BARE_TODAY ?? '',
  count: Number(env.BARE_COUNT),
  curves: Number(env.BARE_CURVES),
});

export interface OpenedBareDb {
  db: BareDb;
  /** Set on PGlite only: the in-memory database, to fill. */
  pglite: PGlite | null;
  database: Database | null;
  where: string;
  close(): Promise<void>;
}

/** BARE_DATABASE_URL set: a pg pool of `poolSize` on it; unset: an empty migrated in-memory PGlite. */
export async function openBareDb(poolSize: number): Promise<OpenedBareDb> {
  const url = process.env.BARE_DATABASE_URL;
  if (url) {
    const pool = new pg.Pool({ connectionString: url, max: poolSize });
    pool.on('error', () => undefined);
    const where = `the server's PostgreSQL database (${poolSize === 1 ? 'one pg client' : `pg pool of ${poolSize}, as the server's`})`;
    return { db: drizzlePg(pool) as unknown as BareDb, pglite: null, database: null, where, close: () => pool.end() };
  }
  const pglite = new PGlite();
  const database = await openDatabase({ pglite });
  await database.migrate();
  return {
    db: drizzlePglite(pglite) as unknown as BareDb,
    pglite,
    database,
    where: 'an in-memory PGlite in its own process (the app\'s migrations)',
    close: () => database.close(),
  };
}

/** Loads the demo seed and the scale seed's records into the in-memory PGlite, as the server's were; returns the seconds. */
export async function loadGeneratedRecords(pglite: PGlite, database: Database): Promise<number> {
  const { today, count, curves } = generatedDataOf(process.env);
  const started = performance.now();
  const blobsDir = mkdtempSync(path.join(os.tmpdir(), 'hkmi-bench-bare-'));
  try {
    await seedDemoData(database.db, new DiskBlobStore(blobsDir), { today });
    await generateInspections(
      { query: async <R>(text: string, params?: unknown[]) => (await pglite.query<R>(text, params)).rows },
      { count, curves: curves || undefined, today, blobsDir },
    );
  } finally {
    rmSync(blobsDir, { recursive: true, force: true });
  }
  return (performance.now() - started) / 1000;
}
