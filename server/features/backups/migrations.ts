/**
 * Which schema version a database is at, and a migrations folder cut at a given version: a
 * restore builds the schema its backup's rows fit, loads them, then migrates on to today's.
 */
import { cp, mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { MIGRATIONS_DIR } from '../../paths.js';

interface Journal {
  version: string;
  dialect: string;
  entries: Array<{ idx: number; tag: string; when: number }>;
}

export async function readJournal(folder = MIGRATIONS_DIR): Promise<Journal> {
  return JSON.parse(await readFile(path.join(folder, 'meta', '_journal.json'), 'utf8')) as Journal;
}

/** The migrations applied to this database (Drizzle's own table): how many, and the last one's name. */
export async function appliedMigrations(db: DbOrTx): Promise<{ count: number; last: string }> {
  const exists = (await db.execute(sql`select to_regclass('drizzle.__drizzle_migrations') is not null as ok`)) as unknown as { rows: Array<{ ok: boolean }> };
  if (!exists.rows[0]?.ok) throw new Error('This database has no tables of the app yet: nothing to back up. Start the server on it once first.');
  const result = (await db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`)) as unknown as { rows: Array<{ n: number }> };
  const count = result.rows[0]?.n ?? 0;
  const journal = await readJournal();
  return { count, last: journal.entries[count - 1]?.tag ?? '' };
}

/** A temporary copy of the migrations folder holding only the first `count` migrations. */
export async function migrationsUpTo(count: number): Promise<string> {
  const journal = await readJournal();
  const folder = await mkdtemp(path.join(tmpdir(), 'hkmi-migrations-'));
  await mkdir(path.join(folder, 'meta'));
  const entries = journal.entries.slice(0, count);
  for (const entry of entries) await cp(path.join(MIGRATIONS_DIR, `${entry.tag}.sql`), path.join(folder, `${entry.tag}.sql`));
  await writeFile(path.join(folder, 'meta', '_journal.json'), JSON.stringify({ ...journal, entries }));
  return folder;
}
