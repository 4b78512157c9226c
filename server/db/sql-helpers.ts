import { sql, type Column, type SQL } from 'drizzle-orm';

/** A LIKE/ILIKE pattern matching `text` anywhere, with `%`, `_` and `\` in it taken literally. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * `(a, b, c) in (values (1, 2, 3), (4, 5, 6))`: rows matching any of several composite keys.
 * A VALUES list, not a plain row list: PostgreSQL expands `in ((...), (...))` into an OR of
 * ANDs, and PGlite fails or hangs on the second such statement of some hundreds of rows.
 */
export function rowValuesIn(columns: readonly Column[], tuples: readonly (readonly unknown[])[]): SQL {
  if (tuples.length === 0) return sql`false`;
  const list = sql.join(
    tuples.map((tuple) => sql`(${sql.join(tuple.map((value) => sql`${value}`), sql`, `)})`),
    sql`, `,
  );
  return sql`(${sql.join([...columns], sql`, `)}) in (values ${list})`;
}
