/**
 * Answers reused until their table changes. Counting 100k rows costs milliseconds of a
 * database core, and a page of records costs more in Node (rows parsed, JSON built) than in
 * the database; the records view and the data summary ask the same questions over and over.
 * Each cached table has a version in `change_counters`, bumped by a statement trigger inside
 * every writing transaction (migration 0001), so one primary-key read tells whether any
 * instance has written since an answer was made: what is served is always current.
 */
import { inArray } from 'drizzle-orm';
import type { DbOrTx } from './client.js';
import { changeCounters } from './schema.js';

export type VersionedTable =
  | 'inspection_logs'
  | 'consolidated_curve_details'
  | 'stations'
  | 'curve_records'
  | 'machine_dashboard_summary'
  | 'hkm_controller_mapping'
  | 'follow_up_actions';

export async function readTableVersions(db: DbOrTx, tables: readonly VersionedTable[]): Promise<Map<VersionedTable, number>> {
  const rows = await db
    .select({ tableName: changeCounters.tableName, version: changeCounters.version })
    .from(changeCounters)
    .where(inArray(changeCounters.tableName, [...tables]));
  // A table never written since the migration has no row yet: version 0.
  const versions = new Map<VersionedTable, number>(tables.map((t) => [t, 0]));
  for (const row of rows) versions.set(row.tableName as VersionedTable, row.version);
  return versions;
}

interface Entry<T> {
  version: number;
  value: T;
  weight: number;
}

export interface VersionedCacheOptions<T> {
  /** The most entries kept; the least recently used goes first. */
  maxEntries: number;
  /** With `weigh`, the most total weight (e.g. bytes) kept. */
  maxWeight?: number;
  weigh?: (value: T) => number;
}

export class VersionedCache<T> {
  private readonly entries = new Map<string, Entry<T>>();
  /** Answers being made: callers asking the same at the same version wait for one making. */
  private readonly making = new Map<string, Promise<T>>();
  private weight = 0;

  constructor(private readonly options: VersionedCacheOptions<T>) {}

  /**
   * The answer for `key` made at `version`, or `make()`'s. The version must be read before
   * making: a write committed in between then makes the next call remake, never the other
   * way round.
   */
  async get(key: string, version: number, make: () => Promise<T>): Promise<T> {
    const hit = this.entries.get(key);
    if (hit && hit.version === version) {
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit.value;
    }
    const makingKey = `${version}\u0000${key}`;
    const running = this.making.get(makingKey);
    if (running) return running;
    const made = make()
      .then((value) => {
        this.store(key, version, value);
        return value;
      })
      .finally(() => this.making.delete(makingKey));
    this.making.set(makingKey, made);
    return made;
  }

  private store(key: string, version: number, value: T) {
    const old = this.entries.get(key);
    // A slower making of an older version must not replace a newer answer.
    if (old && old.version > version) return;
    if (old) {
      this.weight -= old.weight;
      this.entries.delete(key);
    }
    const weight = this.options.weigh?.(value) ?? 0;
    this.entries.set(key, { version, value, weight });
    this.weight += weight;
    const maxWeight = this.options.maxWeight ?? Number.POSITIVE_INFINITY;
    for (const [oldestKey, oldest] of this.entries) {
      if (this.entries.size <= this.options.maxEntries && this.weight <= maxWeight) break;
      this.entries.delete(oldestKey);
      this.weight -= oldest.weight;
    }
  }
}
