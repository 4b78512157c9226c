/**
 * Opens the database: PGlite under DATA_DIR by default, PostgreSQL when a URL is given.
 * Both speak the same Drizzle API and run the same committed migrations.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { MIGRATIONS_DIR } from '../paths.js';
import { PRIVATE_DIR_MODE, tightenTree } from '../private-files.js';
import { lockDataDir } from './data-dir-lock.js';
import * as schema from './schema.js';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/** A transaction or the database itself: repositories accept either. */
export type DbOrTx = Db | Parameters<Parameters<Db['transaction']>[0]>[0];

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /**
   * Applies pending migrations; safe to call from several instances at once on PostgreSQL.
   * A restore passes a folder holding the migrations up to its backup's, loads, then migrates on.
   */
  migrate(migrationsFolder?: string): Promise<void>;
  ping(): Promise<boolean>;
  /** The PostgreSQL pool's connections now (for the metrics); null for PGlite, which has one connection and no pool. */
  poolUse(): PoolUse | null;
  close(): Promise<void>;
}

export interface PoolUse {
  /** Open connections, idle or busy. */
  total: number;
  idle: number;
  /** Queries waiting for a connection because all `max` are busy. */
  waiting: number;
  max: number;
}

/** Any number unique to this app, so instances starting together migrate one at a time. */
const MIGRATION_LOCK_KEY = 471_002_025;

export interface OpenDatabaseOptions {
  databaseUrl?: string | undefined;
  dataDir?: string;
  /** An already-open PGlite (tests pass one cloned from a migrated template). */
  pglite?: PGlite;
  poolSize?: number;
}

export async function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options.poolSize ?? 10);
  if (options.pglite) return wrapPglite(options.pglite);
  if (!options.dataDir) throw new Error('openDatabase needs a databaseUrl, a dataDir or a pglite');
  const dir = path.join(options.dataDir, 'pglite');
  // DATA_DIR too, when it is new: owner-only before PGlite writes anything in it.
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  const unlock = lockDataDir(path.join(options.dataDir, 'pglite.lock'));
  try {
    const client = await PGlite.create(dir);
    // PGlite gives its files their modes itself, some readable by all (server/private-files.ts).
    const warning = tightenTree(dir);
    if (warning) console.warn(warning);
    return wrapPglite(client, unlock);
  } catch (error) {
    unlock();
    throw error;
  }
}

function wrapPglite(client: PGlite, onClose: () => void = () => undefined): Database {
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    migrate: (folder = MIGRATIONS_DIR) => migratePglite(drizzlePglite(client, { schema }), { migrationsFolder: folder }),
    ping: () => ping(() => client.query('select 1')),
    poolUse: () => null,
    close: async () => {
      if (!client.closed) await client.close();
      onClose();
    },
  };
}

function openPostgres(url: string, max: number): Database {
  const pool = new pg.Pool({ connectionString: url, max, connectionTimeoutMillis: 5000 });
  // An idle client losing its connection must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  // Nor may a client in use (a transaction waiting on a photo write) when the database goes
  // away: its query fails, the request answers 5xx, the pool drops the client and the phone's
  // outbox sends again. Without a listener, pg's 'error' event would end the process.
  pool.on('connect', (client) => client.on('error', () => undefined));
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  return {
    db,
    kind: 'postgres',
    migrate: async (folder = MIGRATIONS_DIR) => {
      const client = await pool.connect();
      try {
        await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
        await migratePg(drizzlePg(client, { schema }), { migrationsFolder: folder });
      } finally {
        await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
        client.release();
      }
    },
    ping: () => ping(() => pool.query('select 1')),
    poolUse: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max }),
    close: () => pool.end(),
  };
}

/**
 * The health probe's check, straight through the driver: a probe has no rows to map, and
 * each GET /api/health would otherwise pay for building the query through Drizzle.
 */
async function ping(query: () => Promise<unknown>): Promise<boolean> {
  try {
    await query();
    return true;
  } catch {
    return false;
  }
}
