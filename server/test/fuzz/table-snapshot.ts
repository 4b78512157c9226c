/**
 * What every table holds, in one query: its row count and an order-independent hash of its
 * rows, so a refused request that inserted, deleted or changed a row is seen. The table list
 * is read from the database (pg_catalog), so a table added later is covered without editing.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';

/** Both drivers answer a raw statement with `{rows}`. */
async function rowsOf<T>(db: Db, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

export interface TableState {
  rows: number;
  /** Sum of the rows' hashes: changes when any row's content changes. */
  hash: string;
}

export type Snapshot = ReadonlyMap<string, TableState>;

/**
 * The next transaction ID the database will hand out: it moves only when a transaction writes
 * (reads take none), so an unchanged value proves nothing was written, and the full snapshot,
 * which costs a scan of every table, is read only when it moved. On PostgreSQL the counter is
 * shared by every database of the server, so other work there only makes the check slower.
 */
export async function nextTransactionId(db: Db): Promise<string> {
  const [row] = await rowsOf<{ x: string }>(db, sql`select pg_snapshot_xmax(pg_current_snapshot())::text as x`);
  return row?.x ?? '';
}

/** The ordinary tables of the public schema, by name. */
export async function publicTables(db: Db): Promise<string[]> {
  const rows = await rowsOf<{ name: string }>(
    db,
    sql`select c.relname as name from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relkind in ('r', 'p') order by c.relname`,
  );
  return rows.map((r) => r.name);
}

const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** Builds the one statement that reads every table's count and content hash. */
export function snapshotQuery(tables: readonly string[]): string {
  return tables
    .map(
      (table) =>
        `select '${table.replaceAll("'", "''")}'::text as name, count(*)::int as rows, ` +
        `coalesce(sum(hashtextextended(t::text, 0)), 0)::text as hash from public.${quoteIdent(table)} t`,
    )
    .join(' union all ');
}

export async function takeSnapshot(db: Db, query: string): Promise<Snapshot> {
  const rows = await rowsOf<{ name: string; rows: number; hash: string }>(db, sql.raw(query));
  return new Map(rows.map((r) => [r.name, { rows: Number(r.rows), hash: String(r.hash) }]));
}

/** How two snapshots differ, per table: "users: 3 -> 4 rows" or "users: content changed". */
export function snapshotDiff(before: Snapshot, after: Snapshot, ignore: (table: string, kind: 'rows' | 'content') => boolean): string[] {
  const changes: string[] = [];
  for (const [table, was] of before) {
    const now = after.get(table);
    if (!now) continue;
    if (was.rows !== now.rows) {
      if (!ignore(table, 'rows')) changes.push(`${table}: ${was.rows} -> ${now.rows} rows`);
    } else if (was.hash !== now.hash && !ignore(table, 'content')) {
      changes.push(`${table}: content changed (${now.rows} rows)`);
    }
  }
  return changes;
}
