/**
 * Which rows an analytics figure reads (common/rules/analytics.ts, 'Scope'), as SQL conditions
 * on a query's own alias: records, register curves and actions each by their own division and
 * section; records by the SSE of the register curve they belong to, curves and actions by their own.
 */
import { type SQL, sql } from 'drizzle-orm';
import { recordLineOf } from '../../db/sql-helpers.js';

/** The filters as resolved for the requester: undefined is every one. */
export interface AnalyticsSqlScope {
  division?: string | undefined;
  section?: string | undefined;
  sse?: string | undefined;
}

function divisionAndSection(alias: string, scope: AnalyticsSqlScope): SQL[] {
  const a = sql.raw(alias);
  const conditions: SQL[] = [sql`true`];
  if (scope.division !== undefined) conditions.push(sql`${a}.division_railway = ${scope.division}`);
  if (scope.section !== undefined) conditions.push(sql`${a}.section = ${scope.section}`);
  return conditions;
}

/** inspection_logs rows (alias `alias`) in the scope. */
export function recordInScope(alias: string, scope: AnalyticsSqlScope): SQL {
  const conditions = divisionAndSection(alias, scope);
  if (scope.sse !== undefined) {
    const a = sql.raw(alias);
    conditions.push(sql`exists (select 1 from consolidated_curve_details rc
      where rc.division_railway = ${a}.division_railway and rc.section = ${a}.section and rc.curve_number = ${a}.curve_number
        and ${recordLineOf(sql`rc.line`)} = ${a}.line and rc.sse = ${scope.sse})`);
  }
  return sql.join(conditions, sql` and `);
}

/** consolidated_curve_details or follow_up_actions rows (alias `alias`) in the scope: both carry their own sse. */
export function curveOrActionInScope(alias: string, scope: AnalyticsSqlScope): SQL {
  const conditions = divisionAndSection(alias, scope);
  if (scope.sse !== undefined) conditions.push(sql`${sql.raw(alias)}.sse = ${scope.sse}`);
  return sql.join(conditions, sql` and `);
}

/**
 * Rows of a raw statement. Both drivers answer `{rows}`; cast columns in SQL to types both
 * parse alike (text dates, int counts, float8 figures), which is what T describes.
 */
export async function rowsOf<T>(db: { execute: (query: SQL) => Promise<unknown> }, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as { rows: T[] }).rows;
}
