/**
 * The dashboard's figures worked out in SQL answer what common/rules/analytics.ts defines, worked
 * out here in JS over the very rows inserted: seeded random records and actions in two divisions,
 * over a range whose July holds nothing, with register curves naming SSEs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, daysBetween } from '../../../common/rules/dates.js';
import { isRising, percentileOf, type Period, periodsOf, shareOf } from '../../../common/rules/analytics.js';
import { faultsReportedBy } from '../../../common/rules/follow-up-actions.js';
import type { CofFigures } from '../../../common/schemas/analytics.js';
import type { Database, Db } from '../../db/client.js';
import { consolidatedCurveDetails, followUpActions, type FollowUpActionRow, type InspectionRow } from '../../db/schema.js';
import { Random } from '../../db/seed/random.js';
import { openTestDatabase } from '../../test/test-database.js';
import { inspectionRow, insertInspectionRows } from '../../test/inspections.js';
import type { NewInspectionRow } from '../inspections/repository.js';
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
  UNNAMED_PART,
  visitCounts,
} from './figures-sql.js';
import type { AnalyticsSqlScope } from './sql-scope.js';

const THRESHOLD = 0.25;
const RANGE: Period = { start: '2026-06-10', end: '2026-11-23' };
const CURVE_LIST_MAX = 50;

/** A register line and the records' spelling of it: DN is a code the SSE scope must match as Down. */
const REGISTER_LINES = [
  ['Up', 'Up'],
  ['DN', 'Down'],
  ['Single', 'Single'],
] as const;

interface TestCurve {
  divisionRailway: string;
  section: string;
  curveNumber: string;
  /** As the register spells it (DN for Down). */
  line: string;
  recordLine: 'Up' | 'Down' | 'Single';
  sse: string | null;
  inRegister: boolean;
  /** Its readings rise with the date (equal on one day): the rising list has curves to show. */
  rising: boolean;
}

const SCOPES: AnalyticsSqlScope[] = [
  {},
  { division: 'RTM/WR' },
  { division: 'FZR/NR', section: 'FZR-1' },
  { sse: 'SSE-A' },
  { division: 'RTM/WR', sse: 'SSE-B' },
  { sse: 'nobody' },
];

let database: Database;
let db: Db;
const curves: TestCurve[] = [];
let records: InspectionRow[] = [];
let actions: FollowUpActionRow[] = [];

const curveKey = (r: { divisionRailway: string; section: string; curveNumber: string; line: string }) =>
  `${r.divisionRailway}|${r.section}|${r.curveNumber}|${r.line}`;

function recordInScope(r: InspectionRow, scope: AnalyticsSqlScope): boolean {
  if (scope.division !== undefined && r.divisionRailway !== scope.division) return false;
  if (scope.section !== undefined && r.section !== scope.section) return false;
  if (scope.sse === undefined) return true;
  return curves.some(
    (c) =>
      c.inRegister &&
      c.sse === scope.sse &&
      c.divisionRailway === r.divisionRailway &&
      c.section === r.section &&
      c.curveNumber === r.curveNumber &&
      c.recordLine === r.line,
  );
}

function actionInScope(a: FollowUpActionRow, scope: AnalyticsSqlScope): boolean {
  return (
    (scope.division === undefined || a.divisionRailway === scope.division) &&
    (scope.section === undefined || a.section === scope.section) &&
    (scope.sse === undefined || a.sse === scope.sse)
  );
}

const within = (date: string, period: Period) => date >= period.start && date <= period.end;
const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const latestFirst = (a: InspectionRow, b: InspectionRow) =>
  byName(b.date, a.date) || b.submittedAt.getTime() - a.submittedAt.getTime() || b.id - a.id;
const compareCurves = (a: { divisionRailway: string; section: string; curveNumber: string; line: string }, b: typeof a) =>
  byName(a.divisionRailway, b.divisionRailway) || byName(a.section, b.section) || byName(a.curveNumber, b.curveNumber) || byName(a.line, b.line);

function groupBy<T>(items: readonly T[], keyOf: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(keyOf(item), [...(groups.get(keyOf(item)) ?? []), item]);
  return groups;
}

const inScope = (scope: AnalyticsSqlScope) => records.filter((r) => recordInScope(r, scope));
const cofReadings = (rows: readonly InspectionRow[]) => rows.filter((r) => r.type === 'CoF' && r.cofValue !== null);
const serviceVisits = (rows: readonly InspectionRow[]) => rows.filter((r) => r.type === 'Service');
const greaseReadings = (rows: readonly InspectionRow[]) => serviceVisits(rows).filter((r) => r.greaseDepth !== null);

function expectedCof(rows: readonly InspectionRow[]): CofFigures {
  const values = rows.map((r) => Number(r.cofValue));
  return {
    count: values.length,
    median: percentileOf(values, 0.5),
    p90: percentileOf(values, 0.9),
    aboveThresholdShare: shareOf(values.filter((v) => v > THRESHOLD).length, values.length),
  };
}

function expectedGrease(rows: readonly InspectionRow[]) {
  const depths = rows.map((r) => Number(r.greaseDepth));
  return { count: depths.length, median: percentileOf(depths, 0.5) };
}

function expectedFaults(period: Period, rows: readonly InspectionRow[]) {
  const visits = serviceVisits(rows);
  const kinds = visits.flatMap((r) =>
    faultsReportedBy(
      { type: 'Service', serviceUpdate: r.serviceUpdate, partCategory: r.partCategory, partItemName: r.partItemName, isMachineWorking: r.isMachineWorking, cofValue: null },
      THRESHOLD,
    ).map((f) => f.kind),
  );
  const saying = visits.filter((r) => r.isMachineWorking !== null);
  return {
    ...period,
    serviceVisits: visits.length,
    partBroken: kinds.filter((k) => k === 'part-broken').length,
    partStolen: kinds.filter((k) => k === 'part-stolen').length,
    machineNotWorking: kinds.filter((k) => k === 'machine-not-working').length,
    workingRate: shareOf(saying.filter((r) => r.isMachineWorking === true).length, saying.length),
  };
}

function bySection<T>(rows: readonly InspectionRow[], figuresOf: (rows: InspectionRow[]) => T & { median: number | null }, highestFirst: boolean) {
  const sections = [...groupBy(rows, (r) => `${r.divisionRailway}|${r.section}`).values()].map((group) => ({
    divisionRailway: group[0]?.divisionRailway ?? '',
    section: group[0]?.section ?? '',
    ...figuresOf(group),
  }));
  return sections.sort(
    (a, b) =>
      ((a.median ?? 0) - (b.median ?? 0)) * (highestFirst ? -1 : 1) || byName(a.divisionRailway, b.divisionRailway) || byName(a.section, b.section),
  );
}

/** Each curve's visits matching `which` on or before `to`, latest first. */
function curvesLatestFirst(scope: AnalyticsSqlScope, which: (r: InspectionRow) => boolean, to: string) {
  const rows = inScope(scope).filter((r) => which(r) && r.date <= to);
  return [...groupBy(rows, curveKey).values()].map((group) => group.sort(latestFirst));
}

const curveOf = (r: InspectionRow) => ({ divisionRailway: r.divisionRailway, section: r.section, curveNumber: r.curveNumber, line: r.line });

function expectedRising(scope: AnalyticsSqlScope, to: string, limit: number) {
  return curvesLatestFirst(scope, (r) => r.type === 'CoF' && r.cofValue !== null, to)
    .map((visits) => visits.slice(0, 3).reverse())
    .filter((last3) => isRising(last3.map((r) => Number(r.cofValue))))
    .map((last3) => ({ ...curveOf(last3[0] as InspectionRow), readings: last3.map((r) => ({ date: r.date, value: Number(r.cofValue) })) }))
    .sort((a, b) => (b.readings[2]?.value ?? 0) - (a.readings[2]?.value ?? 0) || compareCurves(a, b))
    .slice(0, limit);
}

function expectedDry(scope: AnalyticsSqlScope, to: string, limit: number) {
  return curvesLatestFirst(scope, (r) => r.type === 'Service', to)
    .map((visits) => visits.slice(0, 2))
    .filter((last2) => last2.length === 2 && last2.every((r) => r.greaseDepth !== null && Number(r.greaseDepth) === 0))
    .map((last2) => ({ ...curveOf(last2[0] as InspectionRow), lastVisits: last2.map((r) => r.date) }))
    .sort((a, b) => byName(b.lastVisits[0] ?? '', a.lastVisits[0] ?? '') || compareCurves(a, b))
    .slice(0, limit);
}

const partName = (name: string | null) => (name === null || name.trim() === '' ? UNNAMED_PART : name);

function expectedPareto(scope: AnalyticsSqlScope, range: Period) {
  const faults = serviceVisits(inScope(scope)).filter(
    (r) => within(r.date, range) && (r.serviceUpdate === 'part-broken' || r.serviceUpdate === 'part-stolen'),
  );
  const withShares = <T extends { count: number }>(rows: T[]) => {
    let running = 0;
    return rows.map((row) => ({ ...row, cumulativeShare: (running += row.count) / faults.length }));
  };
  const parts = [...groupBy(faults, (r) => `${partName(r.partCategory)}|${partName(r.partItemName)}`).values()]
    .map((group) => ({
      category: partName(group[0]?.partCategory ?? null),
      item: partName(group[0]?.partItemName ?? null),
      broken: group.filter((r) => r.serviceUpdate === 'part-broken').length,
      stolen: group.filter((r) => r.serviceUpdate === 'part-stolen').length,
      count: group.length,
    }))
    .sort((a, b) => b.count - a.count || byName(a.category, b.category) || byName(a.item, b.item));
  const categories = [...groupBy(faults, (r) => partName(r.partCategory)).entries()]
    .map(([category, group]) => ({ category, count: group.length }))
    .sort((a, b) => b.count - a.count || byName(a.category, b.category));
  return { parts: withShares(parts), categories: withShares(categories) };
}

function expectedActions(scope: AnalyticsSqlScope, range: Period) {
  const rows = actions.filter((a) => actionInScope(a, scope));
  const openAtTo = rows.filter((a) => a.openedOn <= range.end && (a.closedOn === null || a.closedOn > range.end));
  const closedInRange = rows.filter((a) => a.closedOn !== null && within(a.closedOn, range));
  return {
    open: openAtTo.length,
    overdue: openAtTo.filter((a) => a.dueDate < range.end).length,
    medianDaysToClose: percentileOf(
      closedInRange.map((a) => daysBetween(a.openedOn, a.closedOn ?? a.openedOn)),
      0.5,
    ),
    openedInRange: rows.filter((a) => within(a.openedOn, range)).length,
    closedInRange: closedInRange.length,
  };
}

function expectedFieldWork(scope: AnalyticsSqlScope, periods: readonly Period[]) {
  const counted = inScope(scope).filter((r) => periods.some((p) => within(r.date, p)));
  const countsOf = (rows: readonly InspectionRow[]) => ({
    service: rows.filter((r) => r.type === 'Service').length,
    cof: rows.filter((r) => r.type === 'CoF').length,
  });
  return [...groupBy(counted, (r) => r.technicianId).entries()]
    .map(([technicianId, rows]) => ({
      technicianId,
      name: [...rows].sort(latestFirst)[0]?.technicianName ?? '',
      ...countsOf(rows),
      series: periods.map((p) => countsOf(rows.filter((r) => within(r.date, p)))),
    }))
    .sort((a, b) => b.service + b.cof - (a.service + a.cof) || byName(a.technicianId, b.technicianId));
}

const GRAINS = [
  { grain: 'month', periods: periodsOf(RANGE.start, RANGE.end, 'month') },
  { grain: 'week', periods: periodsOf(RANGE.start, RANGE.end, 'week') },
] as const;

function randomRecord(rng: Random, curve: TestCurve): NewInspectionRow {
  // Dates from before the range to after it, none in July: its month is an empty period.
  const day = rng.int(0, 190);
  let date = addDays('2026-06-01', day);
  if (date.startsWith('2026-07')) date = rng.pick(['2026-06-09', RANGE.start, '2026-08-01', '2026-08-31', RANGE.end, '2026-11-24']);
  const type = rng.chance(0.5) ? 'Service' : 'CoF';
  const serviceUpdate = rng.pick(['working-fine', 'working-fine', 'part-broken', 'part-stolen', 'uninstall', null] as const);
  const technician = rng.int(1, 6);
  // A fifth of the visits name the curve under the other division: not the register curve's.
  const division = rng.chance(0.2) ? (curve.divisionRailway === 'RTM/WR' ? 'FZR/NR' : 'RTM/WR') : curve.divisionRailway;
  return inspectionRow({
    date,
    type,
    divisionRailway: division,
    section: curve.section,
    curveNumber: curve.curveNumber,
    line: curve.recordLine,
    technicianId: `TEC${technician}`,
    technicianName: `Technician ${technician} ${rng.pick(['A', 'B', 'C'])}`,
    cofValue: type !== 'CoF' ? null : curve.rising ? (0.1 + day * 0.0015).toFixed(2) : rng.pick(['0.12', '0.18', '0.24', '0.25', '0.26', '0.31', '0.40', null]),
    serviceUpdate: type === 'Service' ? serviceUpdate : null,
    partCategory: type === 'Service' ? rng.pick(['Pump', 'Nozzle', 'Tank', '', '  ', null]) : null,
    partItemName: type === 'Service' ? rng.pick(['Motor', 'Seal', 'Cap', '', null]) : null,
    isMachineWorking: type === 'Service' ? rng.pick([true, true, false, null]) : null,
    greaseDepth: type === 'Service' ? rng.pick(['0', '0', '0.0', '1.5', '3.5', '7.2', null]) : null,
    // Several visits on one day, sometimes uploaded at the very same instant.
    submittedAt: new Date(`${date}T${String(8 + rng.int(0, 3)).padStart(2, '0')}:00:00+05:30`),
  });
}

function randomAction(rng: Random, i: number): typeof followUpActions.$inferInsert {
  const openedOn = addDays('2026-05-20', rng.int(0, 200));
  const closedOn = rng.chance(0.5) ? addDays(openedOn, rng.int(0, 45)) : rng.chance(0.1) ? RANGE.end : null;
  const kind = rng.pick(['machine-not-working', 'part-stolen', 'part-broken', 'cof-high'] as const);
  const divisionRailway = rng.pick(['RTM/WR', 'FZR/NR']);
  return {
    kind,
    state: closedOn === null ? 'open' : 'closed',
    severity: 'medium',
    divisionRailway,
    section: rng.pick(divisionRailway === 'RTM/WR' ? ['RTM-0', 'RTM-1'] : ['FZR-0', 'FZR-1']),
    // One curve each: one action per curve, line and kind may stay open.
    curveNumber: `A${i}`,
    line: 'Up',
    sse: rng.pick(['SSE-A', 'SSE-B', null]),
    reported: kind,
    openedOn: rng.chance(0.05) ? RANGE.end : openedOn,
    dueDate: rng.chance(0.1) ? RANGE.end : addDays(openedOn, rng.int(0, 10)),
    lastReportedOn: openedOn,
    closedOn: closedOn !== null && closedOn < openedOn ? openedOn : closedOn,
  };
}

beforeAll(async () => {
  database = await openTestDatabase();
  db = database.db;
  const rng = new Random(20261126);
  for (let i = 0; i < 90; i++) {
    const divisionRailway = i % 2 === 0 ? 'RTM/WR' : 'FZR/NR';
    const [line, recordLine] = REGISTER_LINES[i % REGISTER_LINES.length] ?? REGISTER_LINES[0];
    curves.push({
      divisionRailway,
      section: `${divisionRailway.slice(0, 3)}-${i % 3}`,
      curveNumber: String(100 + Math.floor(i / 6)),
      line,
      recordLine,
      sse: rng.pick(['SSE-A', 'SSE-B', null]),
      inRegister: rng.chance(0.8),
      rising: rng.chance(0.3),
    });
  }
  const registered = curves.filter((c) => c.inRegister);
  await db.insert(consolidatedCurveDetails).values(
    registered.map((c, i) => ({ no: i + 1, divisionRailway: c.divisionRailway, section: c.section, curveNumber: c.curveNumber, line: c.line, sse: c.sse })),
  );
  const rows = curves.flatMap((curve) => Array.from({ length: rng.int(curve.rising ? 10 : 0, 14) }, () => randomRecord(rng, curve)));
  records = await insertInspectionRows(db, rows);
  actions = await db.insert(followUpActions).values(Array.from({ length: 160 }, (_, i) => randomAction(rng, i))).returning();
});

afterAll(async () => {
  await database?.close();
});

describe('the dashboard figures in SQL', () => {
  it('the data reaches the cases the definitions name', () => {
    expect(records.some((r) => r.date === '2026-08-01')).toBe(true);
    expect(records.some((r) => r.date === '2026-08-31')).toBe(true);
    expect(records.some((r) => r.cofValue === '0.25')).toBe(true);
    expect(records.some((r) => r.date.startsWith('2026-07'))).toBe(false);
    for (const scope of SCOPES.slice(0, -1)) expect(inScope(scope).length).toBeGreaterThan(20);
    expect(inScope({ sse: 'nobody' })).toEqual([]);
  });

  for (const scope of SCOPES) {
    describe(`scope ${JSON.stringify(scope)}`, () => {
      for (const { grain, periods } of GRAINS) {
        it(`per ${grain}: CoF, faults, grease and field work`, async () => {
          const rows = inScope(scope);
          const during = (p: Period) => rows.filter((r) => within(r.date, p));
          expect(await cofByPeriod(db, scope, periods, THRESHOLD)).toEqual(periods.map((p) => expectedCof(cofReadings(during(p)))));
          expect(await faultsByPeriod(db, scope, periods)).toEqual(periods.map((p) => expectedFaults(p, during(p))));
          expect(await greaseByPeriod(db, scope, periods)).toEqual(periods.map((p) => expectedGrease(greaseReadings(during(p)))));
          expect(await fieldWork(db, scope, periods)).toEqual(expectedFieldWork(scope, periods));
        });
      }

      it('over the range: by section, visits, parts and actions', async () => {
        const rows = inScope(scope).filter((r) => within(r.date, RANGE));
        expect(await cofBySection(db, scope, RANGE, THRESHOLD)).toEqual(bySection(cofReadings(rows), expectedCof, true));
        expect(await greaseBySection(db, scope, RANGE)).toEqual(bySection(greaseReadings(rows), expectedGrease, false));
        expect(await visitCounts(db, scope, RANGE)).toEqual({ service: serviceVisits(rows).length, cof: rows.length - serviceVisits(rows).length });
        expect(await partsPareto(db, scope, RANGE)).toEqual(expectedPareto(scope, RANGE));
        expect(await actionFigures(db, scope, RANGE)).toEqual(expectedActions(scope, RANGE));
      });

      it('curves: rising friction and dry machines', async () => {
        for (const to of [RANGE.end, '2026-08-31']) {
          expect(await risingCurves(db, scope, to, CURVE_LIST_MAX)).toEqual(expectedRising(scope, to, CURVE_LIST_MAX));
          expect(await dryCurves(db, scope, to, CURVE_LIST_MAX)).toEqual(expectedDry(scope, to, CURVE_LIST_MAX));
          expect(await risingCurves(db, scope, to, 3)).toEqual(expectedRising(scope, to, 3));
          expect(await dryCurves(db, scope, to, 3)).toEqual(expectedDry(scope, to, 3));
        }
      });
    });
  }

  it('the lists and series are not empty where the data has them', async () => {
    expect((await risingCurves(db, {}, RANGE.end, CURVE_LIST_MAX)).length).toBeGreaterThan(3);
    expect((await dryCurves(db, {}, RANGE.end, CURVE_LIST_MAX)).length).toBeGreaterThan(3);
    expect((await partsPareto(db, {}, RANGE)).parts.some((p) => p.category === UNNAMED_PART)).toBe(true);
    expect((await actionFigures(db, {}, RANGE)).overdue).toBeGreaterThan(0);
  });
});

describe('the definitions’ edges', () => {
  const EDGE_DIVISION = 'EDGE/XR';
  const AUGUST: Period = { start: '2026-08-01', end: '2026-08-31' };
  const SEPTEMBER: Period = { start: '2026-09-01', end: '2026-09-30' };
  const OCTOBER: Period = { start: '2026-10-01', end: '2026-10-31' };
  const scope = { division: EDGE_DIVISION };
  const edgeRow = (overrides: Partial<NewInspectionRow>) => inspectionRow({ divisionRailway: EDGE_DIVISION, section: 'EDGE-0', ...overrides });

  beforeAll(async () => {
    // Kept with the others: the random data's expectations then hold whichever runs first.
    const stored = await insertInspectionRows(db, [
      edgeRow({ date: AUGUST.start, type: 'CoF', cofValue: String(THRESHOLD), technicianId: 'EDGE1' }),
      edgeRow({ date: AUGUST.end, type: 'CoF', cofValue: '0.30', technicianId: 'EDGE1' }),
      edgeRow({ date: SEPTEMBER.start, type: 'CoF', cofValue: '0.20', technicianId: 'EDGE2' }),
      edgeRow({ date: AUGUST.start, serviceUpdate: 'part-broken', isMachineWorking: false, greaseDepth: '0', technicianId: 'EDGE2' }),
      edgeRow({ date: AUGUST.end, serviceUpdate: 'working-fine', isMachineWorking: null, greaseDepth: '2.0', technicianId: 'EDGE2' }),
    ]);
    records.push(...stored);
  });

  it('a record on a period’s first or last day counts in that period only; equal to the threshold is not above it', async () => {
    expect(await cofByPeriod(db, scope, [AUGUST, SEPTEMBER], THRESHOLD)).toEqual([
      { count: 2, median: 0.275, p90: 0.295, aboveThresholdShare: 0.5 },
      { count: 1, median: 0.2, p90: 0.2, aboveThresholdShare: 0 },
    ]);
    expect(await visitCounts(db, scope, { start: AUGUST.end, end: AUGUST.end })).toEqual({ service: 1, cof: 1 });
    expect(await faultsByPeriod(db, scope, [AUGUST])).toEqual([
      { ...AUGUST, serviceVisits: 2, partBroken: 1, partStolen: 0, machineNotWorking: 1, workingRate: 0 },
    ]);
  });

  it('an empty period answers zeros and nulls', async () => {
    expect(await cofByPeriod(db, scope, [OCTOBER], THRESHOLD)).toEqual([{ count: 0, median: null, p90: null, aboveThresholdShare: null }]);
    expect(await faultsByPeriod(db, scope, [OCTOBER])).toEqual([
      { ...OCTOBER, serviceVisits: 0, partBroken: 0, partStolen: 0, machineNotWorking: 0, workingRate: null },
    ]);
    expect(await greaseByPeriod(db, scope, [AUGUST, OCTOBER])).toEqual([{ count: 2, median: 1 }, { count: 0, median: null }]);
    expect(await fieldWork(db, scope, [AUGUST, OCTOBER, SEPTEMBER])).toEqual([
      { technicianId: 'EDGE2', name: 'Ravi Meena', service: 2, cof: 1, series: [{ service: 2, cof: 0 }, { service: 0, cof: 0 }, { service: 0, cof: 1 }] },
      { technicianId: 'EDGE1', name: 'Ravi Meena', service: 0, cof: 2, series: [{ service: 0, cof: 2 }, { service: 0, cof: 0 }, { service: 0, cof: 0 }] },
    ]);
    expect(await partsPareto(db, scope, OCTOBER)).toEqual({ parts: [], categories: [] });
    expect(await actionFigures(db, scope, OCTOBER)).toEqual({ open: 0, overdue: 0, medianDaysToClose: null, openedInRange: 0, closedInRange: 0 });
  });
});
