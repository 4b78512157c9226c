/**
 * Analytics (common/rules/analytics.ts): the range's headline figures and the dashboard's
 * series, each worked out by the database, for the scope the requester may read (a Client their
 * own division whatever they ask for). Answers are cached until an instance writes to a table they
 * read (change_counters) or the business date moves on.
 */
import { addDays, dateInTimeZone, daysBetween } from '../../../common/rules/dates.js';
import { divisionScope } from '../../../common/rules/division-scope.js';
import { ANALYTICS_MAX_DAYS, type Period, periodsOf } from '../../../common/rules/analytics.js';
import type { PublicUser } from '../../../common/schemas/auth.js';
import {
  type AnalyticsDashboard,
  analyticsDashboardSchema,
  type AnalyticsQuery,
  type AnalyticsScope,
  type AnalyticsSummary,
  analyticsSummarySchema,
} from '../../../common/schemas/analytics.js';
import { AppError } from '../../app-error.js';
import type { Db } from '../../db/client.js';
import { readTableVersions, VersionedCache, type VersionedTable } from '../../db/versioned-cache.js';
import { JsonBody } from '../../json-body.js';
import { type ComplianceAt, complianceGroupsAt, complianceOnDays } from './compliance-sql.js';
import {
  actionFigures,
  cofByPeriod,
  cofBySection,
  dryCurves,
  faultsByPeriod,
  fieldWork,
  greaseByPeriod,
  greaseBySection,
  partsPareto,
  risingCurves,
  visitCounts,
} from './figures-sql.js';
import type { AnalyticsSqlScope } from './sql-scope.js';

export interface AnalyticsDeps {
  db: Db;
  appTimeZone: string;
  cofAlertThreshold: number;
  now: () => Date;
}

/** The tables a figure reads: a write to any of them remakes the answers. */
export const ANALYTICS_TABLES: readonly VersionedTable[] = ['inspection_logs', 'consolidated_curve_details', 'curve_records', 'follow_up_actions'];

/** An answer as made (checked against its contract) for the reports, and its bytes as sent: not serialized again per request. */
interface Answer<T> {
  value: T;
  body: JsonBody;
}

const answerOf = <T>(value: T): Answer<T> => ({ value, body: JsonBody.of(value) });

/** The range's last 4 weeks when the request names no start. */
const DEFAULT_RANGE_DAYS = 28;

/** Lists of curves (rising friction, dry machines) stop here: the dashboard shows the worst. */
const CURVE_LIST_MAX = 50;

export function createAnalyticsService(deps: AnalyticsDeps) {
  const { db } = deps;
  const today = () => dateInTimeZone(deps.now(), deps.appTimeZone);
  const summaries = new VersionedCache<Answer<AnalyticsSummary>>({ maxEntries: 200 });
  const dashboards = new VersionedCache<Answer<AnalyticsDashboard>>({ maxEntries: 100 });

  /** The filters resolved for `user`: a Client's division; the range's defaults from today. */
  function scopeOf(user: PublicUser, query: AnalyticsQuery): AnalyticsScope {
    const scope = divisionScope(user, query.division);
    if (scope.none) throw new AppError('FORBIDDEN', 'Your account has no division to report on');
    const to = query.to ?? today();
    const from = query.from ?? addDays(to, -(DEFAULT_RANGE_DAYS - 1));
    // The schema checks the range when both ends are given; a default end is checked here.
    const wrong = from > to ? 'from must not be after to' : daysBetween(from, to) >= ANALYTICS_MAX_DAYS ? `The range may span at most ${ANALYTICS_MAX_DAYS} days` : null;
    if (wrong) throw new AppError('VALIDATION_FAILED', `from: ${wrong}`, { fields: { from: wrong } });
    return { division: scope.division ?? null, section: query.section ?? null, sse: query.sse ?? null, from, to, by: query.by };
  }

  async function version(): Promise<number> {
    // Counters only rise, so their sum moves whenever any of them does.
    const versions = await readTableVersions(db, ANALYTICS_TABLES);
    return [...versions.values()].reduce((a, b) => a + b, 0);
  }

  const sqlScope = (scope: AnalyticsScope): AnalyticsSqlScope => ({
    division: scope.division ?? undefined,
    section: scope.section ?? undefined,
    sse: scope.sse ?? undefined,
  });

  /** The headline figures; `compliance` at `to` when the caller has it already (the dashboard's series ends there). */
  async function headline(scope: AnalyticsScope, compliance?: ComplianceAt) {
    const where = sqlScope(scope);
    const range: Period = { start: scope.from, end: scope.to };
    // One statement after another, as the dashboard's: a summary should not take a pool's worth of connections either.
    const atTo = compliance ?? (await complianceOnDays(db, where, [scope.to]))[0];
    const [cof] = await cofByPeriod(db, where, [range], deps.cofAlertThreshold);
    const [faults] = await faultsByPeriod(db, where, [range]);
    const visits = await visitCounts(db, where, range);
    const actions = await actionFigures(db, where, range);
    if (!atTo || !cof || !faults) throw new Error('an analytics figure answered no row for the range');
    return {
      serviceCompliance: atTo.service.share,
      cofCompliance: atTo.cof.share,
      cof,
      visits,
      faults: { partBroken: faults.partBroken, partStolen: faults.partStolen, machineNotWorking: faults.machineNotWorking },
      actions,
    };
  }

  /** The headline figures of a scope already resolved (reports resolve it when asked). */
  async function summaryAnswer(scope: AnalyticsScope): Promise<Answer<AnalyticsSummary>> {
    const day = today();
    return summaries.get(JSON.stringify([scope, day, deps.cofAlertThreshold]), await version(), async () =>
      answerOf(analyticsSummarySchema.parse({ asOf: day, scope, cofAlertThreshold: deps.cofAlertThreshold, ...(await headline(scope)) })),
    );
  }

  /** The whole dashboard of a scope already resolved. */
  async function dashboardAnswer(scope: AnalyticsScope): Promise<Answer<AnalyticsDashboard>> {
    const day = today();
    return dashboards.get(JSON.stringify([scope, day, deps.cofAlertThreshold]), await version(), async () => {
      const where = sqlScope(scope);
      const range: Period = { start: scope.from, end: scope.to };
      const periods = periodsOf(scope.from, scope.to, scope.by);
      const threshold = deps.cofAlertThreshold;
      // One after another: on the embedded database every statement waits for the one connection anyway,
      // and on PostgreSQL one dashboard should not take a pool's worth of connections from the field.
      // The last period ends at `to`: its figures are the headline's.
      const complianceSeries = await complianceOnDays(db, where, periods.map((p) => p.end));
      const summary = await headline(scope, complianceSeries.at(-1));
      const { bySection, bySse } = await complianceGroupsAt(db, where, scope.to);
      const cofSeries = await cofByPeriod(db, where, periods, threshold);
      const frictionBySection = await cofBySection(db, where, range, threshold);
      const rising = await risingCurves(db, where, scope.to, CURVE_LIST_MAX);
      const machineSeries = await faultsByPeriod(db, where, periods);
      const pareto = await partsPareto(db, where, range);
      const greaseSeries = await greaseByPeriod(db, where, periods);
      const greaseSections = await greaseBySection(db, where, range);
      const dry = await dryCurves(db, where, scope.to, CURVE_LIST_MAX);
      const technicians = await fieldWork(db, where, periods);
      const inPeriods = <T extends object>(rows: readonly T[]) => periods.map((period, i) => ({ ...period, ...(rows[i] as T) }));
      return answerOf(analyticsDashboardSchema.parse({
        asOf: day,
        scope,
        cofAlertThreshold: threshold,
        summary,
        periods,
        compliance: {
          series: periods.map((period, i) => ({ ...period, service: complianceSeries[i]?.service, cof: complianceSeries[i]?.cof })),
          bySection,
          bySse,
        },
        friction: { series: inPeriods(cofSeries), bySection: frictionBySection, rising },
        machines: { series: inPeriods(machineSeries), ...pareto, actions: summary.actions },
        grease: { series: inPeriods(greaseSeries), bySection: greaseSections, dry },
        fieldWork: { technicians },
      }));
    });
  }

  return {
    scopeOf,
    summaryOf: async (scope: AnalyticsScope) => (await summaryAnswer(scope)).value,
    dashboardOf: async (scope: AnalyticsScope) => (await dashboardAnswer(scope)).value,
    /** The bytes the routes send. */
    summary: async (user: PublicUser, query: AnalyticsQuery) => (await summaryAnswer(scopeOf(user, query))).body,
    dashboard: async (user: PublicUser, query: AnalyticsQuery) => (await dashboardAnswer(scopeOf(user, query))).body,
  };
}

export type AnalyticsService = ReturnType<typeof createAnalyticsService>;
