import { sql, type SQL } from 'drizzle-orm';
import { LINE_CODES } from '../../common/rules/line-codes.js';

/** A LIKE/ILIKE pattern matching `text` anywhere, with `%`, `_` and `\` in it taken literally. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * `jsonb_to_recordset($1) as alias(col type, ...)`: many rows as ONE parameter. Bulk writes
 * (imports, audit entries) send thousands of rows; as one parameter per cell, building the
 * statement costs more than running it (Drizzle checks every parameter), and PostgreSQL caps a
 * statement at 65,535 parameters. `columns` are the table's own column names and types (code
 * constants, never input); `rows` are objects keyed by those names.
 */
export function recordset(alias: string, columns: Readonly<Record<string, string>>, rows: readonly object[]): SQL {
  const definition = Object.entries(columns)
    .map(([name, type]) => `${name} ${type}`)
    .join(', ');
  return sql`jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as ${sql.raw(alias)}(${sql.raw(definition)})`;
}

/** The column list of a recordset's columns, for `insert into t (...) select ... from recordset`. */
export function columnList(columns: Readonly<Record<string, string>>): SQL {
  return sql.raw(Object.keys(columns).join(', '));
}

/** A register curve's line as the records spell it (Up, Down, Single), whatever code the register uses. */
export function recordLineOf(column: SQL): SQL {
  const cases = Object.entries(LINE_CODES).map(([code, line]) => sql`when ${code} then ${line}`);
  return sql`(case upper(regexp_replace(btrim(${column}), '\\s+', '_', 'g')) ${sql.join(cases, sql` `)} else ${column} end)`;
}
