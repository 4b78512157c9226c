/**
 * Exact counts without counting on every request. Counting 100k rows costs milliseconds of a
 * database core; the records view and the data summary ask for the same counts over and over.
 * Each counted table has a version in `change_counters`, bumped by a statement trigger inside
 * every writing transaction (migration 0001), so one primary-key read tells whether any
 * instance has written since a count was taken.
 */
import { inArray } from 'drizzle-orm';
import type { DbOrTx } from './client.js';
import { changeCounters } from './schema.js';

export type CountedTable = 'inspection_logs' | 'consolidated_curve_details' | 'stations';

interface Entry {
  version: number;
  value: number;
}

/** Distinct filters remembered per instance; the oldest is dropped first. */
const MAX_ENTRIES = 2000;

export async function readTableVersions(db: DbOrTx, tables: readonly CountedTable[]): Promise<Map<CountedTable, number>> {
  const rows = await db
    .select({ tableName: changeCounters.tableName, version: changeCounters.version })
    .from(changeCounters)
    .where(inArray(changeCounters.tableName, [...tables]));
  // A table never written since the migration has no row yet: version 0.
  const versions = new Map<CountedTable, number>(tables.map((t) => [t, 0]));
  for (const row of rows) versions.set(row.tableName as CountedTable, row.version);
  return versions;
}

export class CountCache {
  private readonly entries = new Map<string, Entry>();

  /**
   * The count for `key` if it was taken at `version`, otherwise `compute()`'s. The version must
   * be read before computing: a write committed in between then makes the next call recount,
   * never the other way round.
   */
  async get(table: CountedTable, key: string, version: number, compute: () => Promise<number>): Promise<number> {
    const cacheKey = `${table}\u0000${key}`;
    const hit = this.entries.get(cacheKey);
    if (hit && hit.version === version) return hit.value;
    const value = await compute();
    this.entries.delete(cacheKey);
    this.entries.set(cacheKey, { version, value });
    if (this.entries.size > MAX_ENTRIES) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    return value;
  }
}
