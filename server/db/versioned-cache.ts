/**
 * Answers reused until their table changes. Counting 100k rows costs milliseconds of a
 * database core, and a page of records costs more in Node (rows parsed, JSON built) than in
 * the database; the records view and the data summary ask the same questions over and over.
 * Each cached table has a version in `change_counters`, bumped by a statement trigger inside
 * every writing transaction (migration 0001; the sum of the table's shards since migration
 * 0015), so one read of the counters tells whether any instance has written since an answer
 * was made: what is served is always current. That read of a few rows is shared by the
 * requests asking at once (`readTableVersions`).
 */
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

type Counters = ReadonlyMap<string, number>;

/**
 * Every cached read asks for its versions first, so under load most requests would each take a
 * pool connection (and a statement of PostgreSQL's) for the same few rows. Callers asking
 * while a read is on its way share the next one, started as soon as it is back: each caller's
 * versions still come from a statement begun after it asked, so a write committed before it
 * asked is always seen (an upload's answer, then the list: the record is there).
 */
class CounterReads {
  private running: Promise<Counters> | null = null;
  private next: Promise<Counters> | null = null;

  constructor(private readonly db: DbOrTx) {}

  read(): Promise<Counters> {
    const running = this.running;
    if (!running) return this.start();
    this.next ??= running.then(
      () => this.startNext(),
      () => this.startNext(),
    );
    return this.next;
  }

  private startNext(): Promise<Counters> {
    this.next = null;
    return this.start();
  }

  private start(): Promise<Counters> {
    // Every counter (one row per table): one statement answers every caller, whatever tables it asks about.
    const reading = this.db
      .select({ tableName: changeCounters.tableName, version: changeCounters.version })
      .from(changeCounters)
      .then((rows) => new Map(rows.map((row) => [row.tableName, row.version])))
      .finally(() => {
        if (this.running === reading) this.running = null;
      });
    this.running = reading;
    return reading;
  }
}

const counterReads = new WeakMap<DbOrTx, CounterReads>();

export async function readTableVersions(db: DbOrTx, tables: readonly VersionedTable[]): Promise<Map<VersionedTable, number>> {
  let reads = counterReads.get(db);
  if (!reads) {
    reads = new CounterReads(db);
    counterReads.set(db, reads);
  }
  const counters = await reads.read();
  // A table never written since the migration has no row yet: version 0.
  return new Map<VersionedTable, number>(tables.map((t) => [t, counters.get(t) ?? 0]));
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
