/**
 * One realistic analytics dashboard (common/schemas/analytics.ts) for the renderers' tests: six
 * months of RTM/WR by month, compliance improving, friction rising in one section, one part
 * stolen again and again, and a technician with a Devanagari name. Parsed by the contract, so a
 * change to the contract shows here first.
 */
import { periodsOf } from '../../common/rules/analytics.js';
import { type AnalyticsDashboard, analyticsDashboardSchema, type AnalyticsScope } from '../../common/schemas/analytics.js';

export const FIXTURE_SCOPE: AnalyticsScope = { division: 'RTM/WR', section: null, sse: null, from: '2026-06-01', to: '2026-11-23', by: 'month' };

/** A technician's name in Devanagari (no ि, which pdftotext extracts in visual order). */
export const FIXTURE_HINDI_TECHNICIAN = 'राजेश कुमार';

const compliance = (onSchedule: number, within: number, never: number) => ({
  onSchedule,
  within,
  overdue: onSchedule - within - never,
  never,
  share: onSchedule > 0 ? within / onSchedule : null,
});

/** The i-th of n parts of `total`, whole numbers adding up to it. */
const shareOut = (total: number, n: number, i: number) => Math.floor(total / n) + (i < total % n ? 1 : 0);

/** The dashboard of `scope` (its periods follow the scope's range and grain; the figures stay). */
export function analyticsFixture(scope: AnalyticsScope = FIXTURE_SCOPE): AnalyticsDashboard {
  const periods = periodsOf(scope.from, scope.to, scope.by);
  const at = <T>(values: readonly T[], i: number): T => values[i % values.length] as T;
  const serviceWithin = [61, 66, 70, 74, 79, 83];
  const cofWithin = [55, 58, 64, 69, 71, 76];
  const medians = [0.17, 0.18, 0.18, 0.19, 0.21, 0.22];
  const p90s = [0.22, 0.23, 0.24, 0.26, 0.28, 0.3];
  const readings = [84, 91, 88, 95, 102, 97];
  const above = [4, 6, 7, 11, 15, 17];
  const broken = [3, 5, 2, 4, 3, 2];
  const stolen = [6, 4, 7, 5, 8, 6];
  const notWorking = [5, 6, 4, 5, 3, 2];
  const serviceVisits = [180, 186, 192, 201, 210, 168];
  const grease = [1.8, 1.6, 1.5, 1.4, 1.2, 1.1];
  return analyticsDashboardSchema.parse({
    asOf: scope.to,
    scope,
    cofAlertThreshold: 0.25,
    summary: {
      serviceCompliance: 83 / 96,
      cofCompliance: 76 / 96,
      cof: { count: 557, median: 0.19, p90: 0.27, aboveThresholdShare: 60 / 557 },
      visits: { service: 1137, cof: 557 },
      faults: { partBroken: 19, partStolen: 36, machineNotWorking: 25 },
      actions: { open: 14, overdue: 5, medianDaysToClose: 6.5, openedInRange: 61, closedInRange: 52 },
    },
    periods,
    compliance: {
      series: periods.map((p, i) => ({ ...p, service: compliance(96, at(serviceWithin, i), 2), cof: compliance(96, at(cofWithin, i), 3) })),
      bySection: [
        { divisionRailway: 'RTM/WR', section: 'RTM-NAD', service: compliance(40, 30, 1), cof: compliance(40, 29, 2) },
        { divisionRailway: 'RTM/WR', section: 'BEC Bypass', service: compliance(22, 19, 0), cof: compliance(22, 17, 1) },
        { divisionRailway: 'RTM/WR', section: 'RTM-GDA', service: compliance(34, 34, 0), cof: compliance(34, 30, 0) },
      ],
      bySse: [
        { sse: 'SSE/P.Way/Nagda', service: compliance(40, 30, 1), cof: compliance(40, 29, 2) },
        { sse: 'SSE/P.Way/Ratlam', service: compliance(52, 50, 0), cof: compliance(52, 45, 1) },
        { sse: null, service: compliance(4, 3, 1), cof: compliance(4, 2, 0) },
      ],
    },
    friction: {
      series: periods.map((p, i) => ({
        ...p,
        count: at(readings, i),
        median: at(medians, i),
        p90: at(p90s, i),
        aboveThresholdShare: at(above, i) / at(readings, i),
      })),
      bySection: [
        { divisionRailway: 'RTM/WR', section: 'RTM-NAD', count: 240, median: 0.23, p90: 0.31, aboveThresholdShare: 44 / 240 },
        { divisionRailway: 'RTM/WR', section: 'RTM-GDA', count: 190, median: 0.17, p90: 0.22, aboveThresholdShare: 9 / 190 },
        { divisionRailway: 'RTM/WR', section: 'BEC Bypass', count: 127, median: 0.16, p90: 0.21, aboveThresholdShare: 7 / 127 },
      ],
      rising: [
        {
          divisionRailway: 'RTM/WR',
          section: 'RTM-NAD',
          curveNumber: '30',
          line: 'UP',
          readings: [
            { date: '2026-10-02', value: 0.21 },
            { date: '2026-10-30', value: 0.26 },
            { date: '2026-11-20', value: 0.33 },
          ],
        },
        {
          divisionRailway: 'RTM/WR',
          section: 'RTM-NAD',
          curveNumber: '14',
          line: 'DN',
          readings: [
            { date: '2026-09-28', value: 0.18 },
            { date: '2026-10-26', value: 0.2 },
            { date: '2026-11-19', value: 0.27 },
          ],
        },
      ],
    },
    machines: {
      series: periods.map((p, i) => ({
        ...p,
        partBroken: at(broken, i),
        partStolen: at(stolen, i),
        machineNotWorking: at(notWorking, i),
        serviceVisits: at(serviceVisits, i),
        workingRate: 1 - at(notWorking, i) / at(serviceVisits, i),
      })),
      parts: [
        { category: 'Pump', item: 'Grease cartridge', broken: 1, stolen: 24, count: 25, cumulativeShare: 25 / 55 },
        { category: 'Pump', item: 'Motor', broken: 9, stolen: 3, count: 12, cumulativeShare: 37 / 55 },
        { category: 'Solar', item: 'Solar panel', broken: 2, stolen: 7, count: 9, cumulativeShare: 46 / 55 },
        { category: 'Applicator', item: 'Applicator bar', broken: 6, stolen: 0, count: 6, cumulativeShare: 52 / 55 },
        { category: 'Solar', item: 'Battery', broken: 1, stolen: 2, count: 3, cumulativeShare: 1 },
      ],
      categories: [
        { category: 'Pump', count: 37, cumulativeShare: 37 / 55 },
        { category: 'Solar', count: 12, cumulativeShare: 49 / 55 },
        { category: 'Applicator', count: 6, cumulativeShare: 1 },
      ],
      actions: { open: 14, overdue: 5, medianDaysToClose: 6.5, openedInRange: 61, closedInRange: 52 },
    },
    grease: {
      series: periods.map((p, i) => ({ ...p, count: at(serviceVisits, i) - 9, median: at(grease, i) })),
      bySection: [
        { divisionRailway: 'RTM/WR', section: 'RTM-NAD', count: 460, median: 1.1 },
        { divisionRailway: 'RTM/WR', section: 'RTM-GDA', count: 390, median: 1.6 },
        { divisionRailway: 'RTM/WR', section: 'BEC Bypass', count: 233, median: 1.5 },
      ],
      dry: [{ divisionRailway: 'RTM/WR', section: 'BEC Bypass', curveNumber: '5', line: 'UP', lastVisits: ['2026-11-04', '2026-11-18'] }],
    },
    fieldWork: {
      technicians: [
        { technicianId: 'TEC7', name: FIXTURE_HINDI_TECHNICIAN, service: 512, cof: 240 },
        { technicianId: 'TEC3', name: 'Suresh Patel', service: 401, cof: 198 },
        { technicianId: 'TEC9', name: 'Meena Joshi', service: 224, cof: 119 },
      ].map((t) => ({ ...t, series: periods.map((_, i) => ({ service: shareOut(t.service, periods.length, i), cof: shareOut(t.cof, periods.length, i) })) })),
    },
  });
}

/** The dashboard of a scope without a record, a curve on the schedule or an action: every share and reading null. */
export function emptyAnalyticsFixture(scope: AnalyticsScope = FIXTURE_SCOPE): AnalyticsDashboard {
  const periods = periodsOf(scope.from, scope.to, scope.by);
  const noCompliance = { onSchedule: 0, within: 0, overdue: 0, never: 0, share: null };
  const noReadings = { count: 0, median: null, p90: null, aboveThresholdShare: null };
  const noFaults = { partBroken: 0, partStolen: 0, machineNotWorking: 0 };
  const noActions = { open: 0, overdue: 0, medianDaysToClose: null, openedInRange: 0, closedInRange: 0 };
  return analyticsDashboardSchema.parse({
    asOf: scope.to,
    scope,
    cofAlertThreshold: 0.25,
    summary: { serviceCompliance: null, cofCompliance: null, cof: noReadings, visits: { service: 0, cof: 0 }, faults: noFaults, actions: noActions },
    periods,
    compliance: { series: periods.map((p) => ({ ...p, service: noCompliance, cof: noCompliance })), bySection: [], bySse: [] },
    friction: { series: periods.map((p) => ({ ...p, ...noReadings })), bySection: [], rising: [] },
    machines: { series: periods.map((p) => ({ ...p, ...noFaults, serviceVisits: 0, workingRate: null })), parts: [], categories: [], actions: noActions },
    grease: { series: periods.map((p) => ({ ...p, count: 0, median: null })), bySection: [], dry: [] },
    fieldWork: { technicians: [] },
  });
}
