/**
 * The database half of a backup on the embedded database (PGlite), without stalling the app.
 *
 * PGlite has one connection and a transaction holds it: one REPEATABLE READ snapshot over 100k
 * records kept every request waiting for seconds. So each table is read in chunks of key order,
 * each chunk its own short transaction (`tableRowsInChunks`), and the writes made meanwhile are
 * found by the tables' change counters (`change_counters`: a statement trigger bumps a table's
 * version inside every transaction that writes it, migrations 0001, 0006, 0014):
 *
 * 1. A pass reads the versions, then reads each table of the pass in chunks to its file.
 * 2. One short transaction then reads the versions again. A table whose version moved since the
 *    start of the pass that last read it is read again in another pass; the others are done.
 * 3. When that transaction finds no version moved, it is the backup's point in time: it reads
 *    the clock and the schema version there, and any table with no counter (none today)
 *    whole. After MAX_PASSES passes, the tables still changing are read whole in that same
 *    transaction instead (one short exclusive read of those tables only), so a steady stream of
 *    writes cannot keep a backup from finishing.
 *
 * Why that is one point in time: PGlite runs one transaction at a time, so every write commits
 * either before or after any given read. A table's version equal at the start of its last pass
 * and in the final transaction means no transaction wrote the table in between (each one that
 * did moved it, in the same commit), so every chunk of that pass, each read after that start,
 * saw the table exactly as the final transaction does. Every table is thus written as of the
 * final transaction, as if it had read them all. The photo list is read the same way: right
 * after the records, in the same pass, so it belongs to the records as dumped.
 *
 * PostgreSQL keeps the single REPEATABLE READ snapshot (make-backup.ts): it has MVCC and other
 * connections, so a long read there stalls nobody.
 */
import { sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client.js';
import type { BackupManifest } from './backup-folder.js';
import { backedUpTables, beginSnapshot, changeVersions, PHOTOS_NAMED_BY, photoHashesOf, tableRows, tableRowsInChunks, type TableShape } from './database-dump.js';
import { appliedMigrations } from './migrations.js';

export type TableEntry = BackupManifest['tables'][number];

export interface DatabaseSnapshot {
  at: Date;
  migrations: { count: number; last: string };
  tables: TableEntry[];
  photoHashes: string[];
}

export interface DumpSteps {
  /** Writes a table's file from its lines (again, replacing it, when the table is read again). */
  writeTable(shape: TableShape, lines: AsyncIterable<string>): Promise<TableEntry>;
  /** Tables written so far, of all. */
  onProgress?(done: number, total: number): void;
  /** Rows a chunk reads (CHUNK_ROWS; tests take a few to have many chunks). */
  chunkRows?: number;
}

/** Chunked passes before the tables still changing are read whole in the final transaction. */
export const MAX_PASSES = 3;

/** The clock and the schema version, read in the transaction that is the backup's point in time. */
export async function snapshotFacts(tx: DbOrTx): Promise<Pick<DatabaseSnapshot, 'at' | 'migrations'>> {
  const [clock] = ((await tx.execute(sql`select now() as at`)) as unknown as { rows: Array<{ at: Date | string }> }).rows;
  return { at: new Date(clock?.at ?? Date.now()), migrations: await appliedMigrations(tx) };
}

/** What the transaction after a pass found: tables to read again, or the backup's point in time. */
type PassOutcome = { changed: TableShape[] } | { facts: Pick<DatabaseSnapshot, 'at' | 'migrations'> };

export async function dumpInPasses(db: Db, steps: DumpSteps): Promise<DatabaseSnapshot> {
  const shapes = await backedUpTables(db);
  const chunked = shapes.filter((shape) => shape.counted && shape.keyTypes !== null);
  /** Each table's entry once written, and for a chunked one its version when its last pass began. */
  const written = new Map<string, { entry: TableEntry; version: string }>();
  let photoHashes: string[] = [];
  const versionOf = (versions: Map<string, string>, shape: TableShape) => versions.get(shape.name) ?? '0';
  let toRead = chunked;
  for (let pass = 1; ; pass++) {
    const started = await changeVersions(db);
    for (const shape of toRead) {
      steps.onProgress?.(written.size, shapes.length);
      const entry = await steps.writeTable(shape, tableRowsInChunks(db, shape, steps.chunkRows));
      if (shape.name === PHOTOS_NAMED_BY) photoHashes = await db.transaction((tx) => photoHashesOf(tx));
      written.set(shape.name, { entry, version: versionOf(started, shape) });
    }
    const final = await db.transaction(async (tx): Promise<PassOutcome> => {
      await beginSnapshot(tx);
      const now = await changeVersions(tx);
      const changed = chunked.filter((shape) => versionOf(now, shape) !== written.get(shape.name)?.version);
      if (changed.length > 0 && pass < MAX_PASSES) return { changed };
      // The backup's point in time: what is left is read here, in this one transaction.
      for (const shape of shapes.filter((s) => !chunked.includes(s) || changed.includes(s))) {
        steps.onProgress?.(written.size, shapes.length);
        written.set(shape.name, { entry: await steps.writeTable(shape, tableRows(tx, shape)), version: versionOf(now, shape) });
        if (shape.name === PHOTOS_NAMED_BY) photoHashes = await photoHashesOf(tx);
      }
      return { facts: await snapshotFacts(tx) };
    });
    if ('facts' in final) {
      const tables = shapes.map((shape) => written.get(shape.name)?.entry).filter((entry): entry is TableEntry => entry !== undefined);
      return { ...final.facts, tables, photoHashes };
    }
    toRead = final.changed;
  }
}
