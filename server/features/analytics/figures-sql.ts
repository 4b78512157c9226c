/**
 * The dashboard's figures other than compliance (common/rules/analytics.ts), each worked out by
 * the database over the records and the actions of the scope.
 * TO BE BUILT (helper S2). Per-period functions answer one entry per period, in the order given.
 */
import type { AnalyticsDashboard, ActionFigures, CofFigures, FaultCounts } from '../../../common/schemas/analytics.js';
import type { Period } from '../../../common/rules/analytics.js';
import type { DbOrTx } from '../../db/client.js';
import type { AnalyticsSqlScope } from './sql-scope.js';

type Dashboard = AnalyticsDashboard;
const notBuilt = (name: string): never => {
  throw new Error(`${name}: not built yet`);
};

/** CoF readings dated in each period. */
export async function cofByPeriod(_db: DbOrTx, _scope: AnalyticsSqlScope, _periods: readonly Period[], _threshold: number): Promise<CofFigures[]> {
  return notBuilt('cofByPeriod');
}

/** CoF readings dated in [from, to] per division and section, highest median first. */
export async function cofBySection(_db: DbOrTx, _scope: AnalyticsSqlScope, _range: Period, _threshold: number): Promise<Dashboard['friction']['bySection']> {
  return notBuilt('cofBySection');
}

/** Curves whose last three readings on or before `to` each rise, highest last reading first. */
export async function risingCurves(_db: DbOrTx, _scope: AnalyticsSqlScope, _to: string, _limit: number): Promise<Dashboard['friction']['rising']> {
  return notBuilt('risingCurves');
}

/** Service visits and the faults they report, per period. */
export async function faultsByPeriod(_db: DbOrTx, _scope: AnalyticsSqlScope, _periods: readonly Period[]): Promise<Dashboard['machines']['series']> {
  return notBuilt('faultsByPeriod');
}

/** Service and CoF visits dated in [from, to]. */
export async function visitCounts(_db: DbOrTx, _scope: AnalyticsSqlScope, _range: Period): Promise<{ service: number; cof: number }> {
  return notBuilt('visitCounts');
}

/** Faults reported over the range (the sum of faultsByPeriod over one period). */
export type RangeFaults = FaultCounts;

/** Parts reported broken or stolen in [from, to]: by item and by category, most first, with the running share. */
export async function partsPareto(
  _db: DbOrTx,
  _scope: AnalyticsSqlScope,
  _range: Period,
): Promise<Pick<Dashboard['machines'], 'parts' | 'categories'>> {
  return notBuilt('partsPareto');
}

/** Follow-up actions open and overdue at `to`, opened and closed in the range, median days to close. */
export async function actionFigures(_db: DbOrTx, _scope: AnalyticsSqlScope, _range: Period): Promise<ActionFigures> {
  return notBuilt('actionFigures');
}

/** Grease depth of the Service visits dated in each period. */
export async function greaseByPeriod(_db: DbOrTx, _scope: AnalyticsSqlScope, _periods: readonly Period[]): Promise<Array<{ count: number; median: number | null }>> {
  return notBuilt('greaseByPeriod');
}

/** Grease depth over [from, to] per division and section, lowest median first. */
export async function greaseBySection(_db: DbOrTx, _scope: AnalyticsSqlScope, _range: Period): Promise<Dashboard['grease']['bySection']> {
  return notBuilt('greaseBySection');
}

/** Curves whose last two Service visits on or before `to` both read 0, the most recent first. */
export async function dryCurves(_db: DbOrTx, _scope: AnalyticsSqlScope, _to: string, _limit: number): Promise<Dashboard['grease']['dry']> {
  return notBuilt('dryCurves');
}

/** Visits per technician per period, most visits first. */
export async function fieldWork(_db: DbOrTx, _scope: AnalyticsSqlScope, _periods: readonly Period[]): Promise<Dashboard['fieldWork']['technicians']> {
  return notBuilt('fieldWork');
}
