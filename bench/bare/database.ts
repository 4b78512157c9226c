/**
 * The database a bare baseline reads, in its own process: the server's scratch PostgreSQL database, or on PGlite (whose
 * data dir the server holds) an in-memory copy loaded as the runner loaded the server's (BARE_TODAY, BARE_COUNT, BARE_CURVES).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { PGlite } from '@electric-sql/pglite';
import { type Database, openDatabase } from '../../server/db/client.js';
import { seedDemoData } from '../../server/db/seed/index.js';
import { generateWithActions } from '../../server/db/seed/scale/load.js';
import { DiskBlobStore } from '../../server/storage/disk-blob-store.js';

export const generatedDataEnv = (data: { today: string; count: number; curves: number }): Record<string, string> => ({
  BARE_TODAY: data.today,
  BARE_COUNT: String(data.count),
  BARE_CURVES: String(data.curves),
});

export async function openBareDb(poolSize: number, options: { pgliteDir?: string } = {}) {
  const url = process.env.BARE_DATABASE_URL;
  const pglite = url ? null : new PGlite(options.pgliteDir);
  const database = await openDatabase(pglite ? { pglite } : { databaseUrl: url, poolSize });
  if (pglite) await database.migrate();
  const where = pglite
    ? `${options.pgliteDir ? 'a PGlite on disk' : 'an in-memory PGlite'} in its own process (the app's migrations)`
    : `the server's PostgreSQL database (${poolSize === 1 ? 'one pg client' : `pg pool of ${poolSize}, as the server's`})`;
  return { db: database.db, database, pglite, where, close: () => database.close() };
}

export async function loadGeneratedRecords(pglite: PGlite, database: Database): Promise<number> {
  const today = process.env.BARE_TODAY ?? '';
  const started = performance.now();
  const blobsDir = mkdtempSync(path.join(os.tmpdir(), 'hkmi-bench-bare-'));
  try {
    await seedDemoData(database.db, new DiskBlobStore(blobsDir), { today });
    const query = async <R>(text: string, params?: unknown[]) => (await pglite.query<R>(text, params)).rows;
    await generateWithActions(database, { query }, { count: Number(process.env.BARE_COUNT), curves: Number(process.env.BARE_CURVES) || undefined, today, blobsDir });
  } finally {
    rmSync(blobsDir, { recursive: true, force: true });
  }
  return (performance.now() - started) / 1000;
}
