/**
 * Whether a database's schema is the one this build expects: Drizzle's migrator applies every
 * migration newer than the last row of drizzle.__drizzle_migrations, comparing its `created_at`
 * with each journal entry's `when`. The database is current when its last applied migration is
 * this build's last or a later one (a newer instance of a rolling upgrade migrated it on).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { MIGRATIONS_DIR } from '../paths.js';
import type { DbOrTx } from './client.js';

/** The `when` of this build's last migration (read once: the folder ships with the build). */
export function expectedMigrationMillis(folder = MIGRATIONS_DIR): number {
  const journal = JSON.parse(readFileSync(path.join(folder, 'meta', '_journal.json'), 'utf8')) as { entries: Array<{ when: number }> };
  return Math.max(0, ...journal.entries.map((entry) => entry.when));
}

export type SchemaState = 'current' | 'behind';

/**
 * One query, so a readiness probe costs one round trip for both "reachable" and "migrated".
 * Throws when the database cannot be asked; a database the app never migrated (no Drizzle
 * table) is 'behind'.
 */
export async function schemaState(db: DbOrTx, expectedMillis: number): Promise<SchemaState> {
  let last: string | null | undefined;
  try {
    const result = (await db.execute(sql`select max(created_at)::text as last from drizzle.__drizzle_migrations`)) as unknown as {
      rows: Array<{ last: string | null }>;
    };
    last = result.rows[0]?.last;
  } catch (error) {
    if (isMissingTable(error)) return 'behind';
    throw error;
  }
  return last !== null && last !== undefined && Number(last) >= expectedMillis ? 'current' : 'behind';
}

/** undefined_table or invalid_schema_name, from the driver or wrapped by Drizzle (its `cause`). */
function isMissingTable(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 3; e = e.cause, depth++) {
    const code = 'code' in e ? e.code : undefined;
    if (code === '42P01' || code === '3F000') return true;
  }
  return false;
}
