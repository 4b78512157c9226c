/**
 * The database half of a backup: every table a user's work lives in, written as one JSON
 * object a row (PostgreSQL's own row_to_json) from one snapshot, and loaded back with
 * json_populate_recordset, so PostgreSQL converts every type both ways itself. The same code
 * runs on PGlite and PostgreSQL, and a backup of one restores into the other.
 *
 * Rows are written in primary-key order with the session in UTC, so the same data always
 * gives the same text: a restore is checked by dumping what it loaded and comparing hashes.
 */
import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client.js';

/**
 * Tables not backed up, each for a reason: sessions and trusted browsers (a restore signs
 * everyone out rather than bringing back sign-ins), login throttling, reports (made again on request; their files are
 * not kept), the change counters (bumped by the load itself), and the job queue with the backup
 * and file-tool bookkeeping of the instance that made the backup.
 */
export const TABLES_NOT_BACKED_UP: ReadonlySet<string> = new Set([
  'sessions',
  'trusted_devices',
  'login_throttle',
  'reports',
  'change_counters',
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
}

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

async function rowsOf<T>(db: DbOrTx, query: ReturnType<typeof sql>): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/** The tables to back up, each after the tables it references. */
export async function backedUpTables(db: DbOrTx): Promise<TableShape[]> {
  const tables = await rowsOf<{ name: string; columns: string[]; pk: string[] | null; deps: string[] | null }>(
    db,
    sql`
      select c.relname as name,
        array(select a.attname::text from pg_attribute a
              where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
              order by a.attnum) as columns,
        (select array(select a.attname::text from unnest(i.indkey) with ordinality k(attnum, n)
                      join pg_attribute a on a.attrelid = c.oid and a.attnum = k.attnum order by k.n)
           from pg_index i where i.indrelid = c.oid and i.indisprimary) as pk,
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

/** Starts the one snapshot a backup reads: every table as of this moment, in UTC text. */
export async function beginSnapshot(tx: DbOrTx): Promise<void> {
  await tx.execute(sql`set transaction isolation level repeatable read, read only`);
  await tx.execute(sql`set local timezone = 'UTC'`);
  // The same float text on every server (shortest exact form, PostgreSQL 12+'s default).
  await tx.execute(sql`set local extra_float_digits = 1`);
}

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
