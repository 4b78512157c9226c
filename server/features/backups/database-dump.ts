/**
 * The database half of a backup: every table a user's work lives in, written as one JSON
 * object a row (PostgreSQL's own row_to_json) from one snapshot, and loaded back with
 * json_populate_recordset, so PostgreSQL converts every type both ways itself. The same code
 * runs on PGlite and PostgreSQL, and a backup of one restores into the other.
 *
 * Rows are written in primary-key order with the session in UTC, so the same data always
 * gives the same text: a restore is checked by dumping what it loaded and comparing hashes.
 * The rows are read either through a cursor in one transaction (`tableRows`) or in chunks of
 * key order, each in its own short transaction (`tableRowsInChunks`, dump-in-passes.ts); both
 * give the same lines.
 */
import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client.js';

/**
 * Tables not backed up, each for a reason: sessions and trusted browsers (a restore signs
 * everyone out rather than bringing back sign-ins), login throttling, reports (made again on request; their files are
 * not kept), the change counters' shards (bumped by the load itself), and the job queue with the backup
 * and file-tool bookkeeping of the instance that made the backup.
 */
export const TABLES_NOT_BACKED_UP: ReadonlySet<string> = new Set([
  'sessions',
  'trusted_devices',
  'login_throttle',
  'reports',
  'change_counter_shards',
  'blob_deletions',
  'jobs',
  'backup_runs',
  'file_tasks',
  'file_task_problems',
]);

export interface TableShape {
  name: string;
  /** Columns that take values (generated columns are left out), in table order. */
  columns: string[];
  /** The order rows are written in: the primary key, else every column. */
  orderBy: string[];
  /** Tables this one references (foreign keys): loaded first. */
  dependsOn: string[];
  /** The primary key's column types (as `orderBy`), for reading in key order by chunks; null without one. */
  keyTypes: string[] | null;
  /** Every write to it bumps its version in `change_counters` (the statement trigger of migration 0001). */
  counted: boolean;
}

/** pg_trigger.tgtype: row (1), before (2), insert (4), delete (8), update (16), truncate (32), instead (64). */
const TRIGGER_TYPE_MASK = 1 | 2 | 4 | 8 | 16 | 32 | 64;
const TRIGGER_ON_EVERY_WRITE = 4 | 8 | 16 | 32;

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

async function rowsOf<T>(db: DbOrTx, query: ReturnType<typeof sql>): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/** The tables to back up, each after the tables it references. */
export async function backedUpTables(db: DbOrTx): Promise<TableShape[]> {
  const tables = await rowsOf<{ name: string; columns: string[]; pk: string[] | null; pk_types: string[] | null; deps: string[] | null; counted: boolean }>(
    db,
    sql`
      select c.relname as name,
        array(select a.attname::text from pg_attribute a
              where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
              order by a.attnum) as columns,
        (select array(select a.attname::text from unnest(i.indkey) with ordinality k(attnum, n)
                      join pg_attribute a on a.attrelid = c.oid and a.attnum = k.attnum order by k.n)
           from pg_index i where i.indrelid = c.oid and i.indisprimary) as pk,
        (select array(select format_type(a.atttypid, a.atttypmod) from unnest(i.indkey) with ordinality k(attnum, n)
                      join pg_attribute a on a.attrelid = c.oid and a.attnum = k.attnum order by k.n)
           from pg_index i where i.indrelid = c.oid and i.indisprimary) as pk_types,
        -- A counter that moves on every kind of write: statement level, after insert, delete,
        -- update and truncate (tgtype bits 4, 8, 16 and 32; row-level and before bits unset).
        exists(select 1 from pg_trigger g join pg_proc p on p.oid = g.tgfoid
               where g.tgrelid = c.oid and p.proname = 'bump_change_counter' and g.tgenabled <> 'D'
                 and (g.tgtype & ${TRIGGER_TYPE_MASK}) = ${TRIGGER_ON_EVERY_WRITE}) as counted,
        array(select distinct r.relname::text from pg_constraint k join pg_class r on r.oid = k.confrelid
              where k.conrelid = c.oid and k.contype = 'f' and k.confrelid <> c.oid) as deps
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind = 'r'
      order by c.relname`,
  );
  const shapes = tables
    .filter((t) => !TABLES_NOT_BACKED_UP.has(t.name))
    .map((t) => ({
      name: t.name,
      columns: t.columns,
      orderBy: t.pk && t.pk.length > 0 ? t.pk : t.columns,
      dependsOn: (t.deps ?? []).filter((d) => !TABLES_NOT_BACKED_UP.has(d)),
      keyTypes: t.pk && t.pk.length > 0 ? t.pk_types : null,
      counted: t.counted,
    }));
  return inDependencyOrder(shapes);
}

function inDependencyOrder(shapes: TableShape[]): TableShape[] {
  const byName = new Map(shapes.map((s) => [s.name, s]));
  const ordered: TableShape[] = [];
  const placed = new Set<string>();
  const visiting = new Set<string>();
  const visit = (shape: TableShape) => {
    if (placed.has(shape.name)) return;
    if (visiting.has(shape.name)) throw new Error(`Foreign keys form a cycle through ${shape.name}`);
    visiting.add(shape.name);
    for (const dep of shape.dependsOn) {
      const target = byName.get(dep);
      if (target) visit(target);
    }
    visiting.delete(shape.name);
    placed.add(shape.name);
    ordered.push(shape);
  };
  for (const shape of shapes) visit(shape);
  return ordered;
}

/** Rows read a batch at a time through a cursor, so a 100k-row table never sits in memory. */
const FETCH_ROWS = 2000;

/**
 * Yields a table's rows as JSON text lines, in key order. Must run inside a transaction (the
 * cursor lives in it); run several inside one REPEATABLE READ transaction for one snapshot.
 */
export async function* tableRows(tx: DbOrTx, table: TableShape): AsyncGenerator<string> {
  const cursor = `backup_${table.name}`;
  const order = table.orderBy.map((c) => `t.${quoteIdent(c)}`).join(', ');
  const select = `select row_to_json(t)::text as line from ${quoteIdent(table.name)} t order by ${order}`;
  await tx.execute(sql.raw(`declare ${quoteIdent(cursor)} no scroll cursor for ${select}`));
  try {
    for (;;) {
      const rows = await rowsOf<{ line: string }>(tx, sql.raw(`fetch ${FETCH_ROWS} from ${quoteIdent(cursor)}`));
      for (const row of rows) yield row.line;
      if (rows.length < FETCH_ROWS) break;
    }
  } finally {
    await tx.execute(sql.raw(`close ${quoteIdent(cursor)}`));
  }
}

/** Rows a chunk of `tableRowsInChunks` reads: a few tens of milliseconds of PGlite's one connection. */
export const CHUNK_ROWS = 1000;

/**
 * Yields a table's rows as `tableRows` does (the same lines in the same order), read in chunks of
 * key order (keyset: the rows after the last key read), each chunk in its own short read-only
 * transaction. Between chunks the connection and the event loop are free for other work: on
 * PGlite a transaction holds the only connection. The chunks are not one snapshot; the caller
 * makes sure the table did not change meanwhile (its change counter, dump-in-passes.ts).
 */
export async function* tableRowsInChunks(db: Db, table: TableShape, rows = CHUNK_ROWS): AsyncGenerator<string> {
  const types = table.keyTypes;
  if (!types) throw new Error(`${table.name} has no primary key to read it in chunks by`);
  const keys = table.orderBy.map((c) => `t.${quoteIdent(c)}`);
  // The keys as text, and back through their own types: every value compares exactly as stored.
  const select = sql.raw(`select row_to_json(t)::text as line, ${keys.map((k, i) => `${k}::text as k${i}`).join(', ')} from ${quoteIdent(table.name)} t`);
  const order = sql.raw(` order by ${keys.join(', ')} limit ${rows}`);
  let after: string[] | null = null;
  for (;;) {
    const where: ReturnType<typeof sql> =
      after === null
        ? sql``
        : sql` where (${sql.raw(keys.join(', '))}) > (${sql.join(
            after.map((value, i) => sql`${value}::text::${sql.raw(types[i] ?? 'text')}`),
            sql`, `,
          )})`;
    const chunk = await db.transaction(async (tx) => {
      await tx.execute(sql`set transaction read only`);
      await useDumpSettings(tx);
      return rowsOf<Record<string, string>>(tx, sql`${select}${where}${order}`);
    });
    for (const row of chunk) yield row.line as string;
    const last = chunk.at(-1);
    if (!last || chunk.length < rows) return;
    after = keys.map((_, i) => last[`k${i}`] as string);
    // Requests that arrived meanwhile queue their queries before the next chunk does.
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** Starts the one snapshot a backup reads: every table as of this moment, in UTC text. */
export async function beginSnapshot(tx: DbOrTx): Promise<void> {
  await tx.execute(sql`set transaction isolation level repeatable read, read only`);
  await useDumpSettings(tx);
}

/** The session settings every dumped line is written under, for this transaction only. */
async function useDumpSettings(tx: DbOrTx): Promise<void> {
  await tx.execute(sql`set local timezone = 'UTC'`);
  // The same float text on every server (shortest exact form, PostgreSQL 12+'s default).
  await tx.execute(sql`set local extra_float_digits = 1`);
}

/** Each counted table's version in `change_counters` (a table never written has no row: '0'). */
export async function changeVersions(db: DbOrTx): Promise<Map<string, string>> {
  const rows = await rowsOf<{ name: string; version: string }>(db, sql`select table_name as name, version::text as version from change_counters`);
  return new Map(rows.map((r) => [r.name, r.version]));
}

/** The photos a backup holds: those its records name, read with them. */
export async function photoHashesOf(tx: DbOrTx): Promise<string[]> {
  const rows = await rowsOf<{ hash: string }>(tx, sql`select distinct image_hash as hash from inspection_logs where image_hash is not null order by image_hash`);
  return rows.map((r) => r.hash);
}

/** The table whose rows name the photos (`photoHashesOf`). */
export const PHOTOS_NAMED_BY = 'inspection_logs';

/** Hashes text lines as the dump writes them (each followed by a newline). */
export class LineHash {
  private readonly hash = createHash('sha256');
  rows = 0;
  add(line: string): void {
    this.hash.update(line);
    this.hash.update('\n');
    this.rows += 1;
  }
  digest(): string {
    return this.hash.digest('hex');
  }
}

/** How many rows one INSERT carries while loading. */
const LOAD_ROWS = 500;

/**
 * Loads a table's rows (JSON lines as dumped) into an empty table, then moves its serial
 * sequences past the highest ID loaded, so new rows never collide with restored ones.
 */
export async function loadTable(db: Db, table: TableShape, lines: AsyncIterable<string>): Promise<number> {
  const columns = table.columns.map(quoteIdent).join(', ');
  let batch: string[] = [];
  let loaded = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    const json = `[${batch.join(',')}]`;
    await db.execute(
      sql`insert into ${sql.raw(quoteIdent(table.name))} (${sql.raw(columns)}) overriding system value
          select ${sql.raw(columns)} from json_populate_recordset(null::${sql.raw(quoteIdent(table.name))}, ${json}::json)`,
    );
    loaded += batch.length;
    batch = [];
  };
  for await (const line of lines) {
    if (line === '') continue;
    batch.push(line);
    if (batch.length >= LOAD_ROWS) await flush();
  }
  await flush();
  await resetSequences(db, table);
  return loaded;
}

async function resetSequences(db: Db, table: TableShape): Promise<void> {
  for (const column of table.columns) {
    const [found] = await rowsOf<{ seq: string | null }>(db, sql`select pg_get_serial_sequence(${quoteIdent(table.name)}, ${column}) as seq`);
    if (!found?.seq) continue;
    await db.execute(
      sql`select setval(${found.seq}, coalesce((select max(${sql.raw(quoteIdent(column))}) from ${sql.raw(quoteIdent(table.name))}), 0) + 1, false)`,
    );
  }
}

/** Dumps a table again (after a restore) and hashes it as the backup did. */
export async function hashTable(db: Db, table: TableShape): Promise<{ rows: number; sha256: string }> {
  return db.transaction(async (tx) => {
    await beginSnapshot(tx);
    const hash = new LineHash();
    for await (const line of tableRows(tx, table)) hash.add(line);
    return { rows: hash.rows, sha256: hash.digest() };
  });
}
