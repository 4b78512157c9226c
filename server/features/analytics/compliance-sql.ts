/**
 * Schedule compliance (common/rules/analytics.ts) worked out by the database: per kind, of the
 * register curves on the schedule at a day, those within their interval, overdue and never visited.
 * TO BE BUILT (helper S1): one statement for all the days asked.
 */
import type { ComplianceFigures } from '../../../common/schemas/analytics.js';
import type { DbOrTx } from '../../db/client.js';
import type { AnalyticsSqlScope } from './sql-scope.js';

export interface ComplianceAt {
  day: string;
  service: ComplianceFigures;
  cof: ComplianceFigures;
}

/** The scope's compliance at each of `days` (in the order given). */
export async function complianceOnDays(_db: DbOrTx, _scope: AnalyticsSqlScope, _days: readonly string[]): Promise<ComplianceAt[]> {
  throw new Error('complianceOnDays: not built yet');
}

export type ComplianceGroup = { service: ComplianceFigures; cof: ComplianceFigures };

/** At `day`, per division and section, worst Service share first (then register order). */
export async function complianceBySection(
  _db: DbOrTx,
  _scope: AnalyticsSqlScope,
  _day: string,
): Promise<Array<{ divisionRailway: string; section: string } & ComplianceGroup>> {
  throw new Error('complianceBySection: not built yet');
}

/** At `day`, per SSE of the register (null: none named), worst Service share first. */
export async function complianceBySse(_db: DbOrTx, _scope: AnalyticsSqlScope, _day: string): Promise<Array<{ sse: string | null } & ComplianceGroup>> {
  throw new Error('complianceBySse: not built yet');
}
