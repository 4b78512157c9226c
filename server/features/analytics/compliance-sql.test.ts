/**
 * The SQL of schedule compliance answers what the rules say on the same rows: hasMachine
 * (common/rules/schedule.ts) over the visits dated on or before each day, and isWithinInterval
 * (common/rules/analytics.ts) of the last visit of each kind.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InspectionType } from '../../../common/constants.js';
import { isWithinInterval, shareOf } from '../../../common/rules/analytics.js';
import { addDays } from '../../../common/rules/dates.js';
import { rolloutHasMachine } from '../../../common/rules/rollout.js';
import { hasMachine, MACHINE_UNINSTALLED } from '../../../common/rules/schedule.js';
import type { ComplianceFigures } from '../../../common/schemas/analytics.js';
import type { Database, Db } from '../../db/client.js';
import { consolidatedCurveDetails, curveRecords, type InspectionRow } from '../../db/schema.js';
import { Random } from '../../db/seed/random.js';
import { inspectionRow, insertInspectionRows } from '../../test/inspections.js';
import type { RecordedCurve } from '../../test/schedule-expectations.js';
import { openTestDatabase } from '../../test/test-database.js';
import type { NewInspectionRow } from '../inspections/repository.js';
import { type ComplianceGroup, complianceBySection, complianceBySse, complianceOnDays } from './compliance-sql.js';
import type { AnalyticsSqlScope } from './sql-scope.js';

/** The last day the random visits reach; the edge cases are judged at it. */
const LAST_DAY = '2026-06-30';
const EDGE_DIVISION = 'EDGE/ER';

interface TestCurve extends RecordedCurve {
  key: string;
  /** As the register holds it: sometimes a code (DN), which the records spell Down. */
  line: string;
  sse: string | null;
  rollout: { machine: string | null; commissioned: string | null } | null;
}

let database: Database;
let db: Db;
const curves: TestCurve[] = [];
let stored: InspectionRow[] = [];

const LINES = [
  { line: 'Up', recordLine: 'Up' },
  { line: 'DN', recordLine: 'Down' },
  { line: 'Single', recordLine: 'Single' },
] as const;

function edgeCurve(key: string, section: string, sse: string | null, rollout: TestCurve['rollout'], line: (typeof LINES)[number] = LINES[0]): TestCurve {
  return { key, divisionRailway: EDGE_DIVISION, section, curveNumber: key, line: line.line, recordLine: line.recordLine, sse, rollout };
}

const visitTo = (curve: TestCurve, type: InspectionType, date: string, overrides: Partial<NewInspectionRow> = {}) =>
  inspectionRow({
    date,
    type,
    divisionRailway: curve.divisionRailway,
    section: curve.section,
    curveNumber: curve.curveNumber,
    line: curve.recordLine,
    serviceUpdate: type === 'Service' ? 'working-fine' : null,
    ...overrides,
  });

/** The curve's last visit of a kind dated on or before `day`: by date, then upload, then id, as the schedule orders them. */
function lastVisitAt(curve: TestCurve, type: InspectionType, day: string): InspectionRow | null {
  let last: InspectionRow | null = null;
  for (const v of stored) {
    const mine =
      v.type === type && v.divisionRailway === curve.divisionRailway && v.section === curve.section && v.curveNumber === curve.curveNumber && v.line === curve.recordLine;
    if (!mine || v.date > day) continue;
    const later =
      last === null ||
      v.date > last.date ||
      (v.date === last.date && (v.submittedAt.getTime() > last.submittedAt.getTime() || (v.submittedAt.getTime() === last.submittedAt.getTime() && v.id > last.id)));
    if (later) last = v;
  }
  return last;
}

function figuresOf(onSchedule: number, within: number, never: number): ComplianceFigures {
  return { onSchedule, within, overdue: onSchedule - within - never, never, share: shareOf(within, onSchedule) };
}

/** The rule's compliance of `of` at `day`. */
function expectedAt(of: readonly TestCurve[], day: string): ComplianceGroup {
  let onSchedule = 0;
  const within = { Service: 0, CoF: 0 };
  const never = { Service: 0, CoF: 0 };
  for (const curve of of) {
    const lastService = lastVisitAt(curve, 'Service', day);
    const rolloutMachine = curve.rollout !== null && rolloutHasMachine(curve.rollout);
    if (!hasMachine(rolloutMachine, lastService && { date: lastService.date, serviceUpdate: lastService.serviceUpdate })) continue;
    onSchedule += 1;
    for (const kind of ['Service', 'CoF'] as const) {
      const last = kind === 'Service' ? lastService : lastVisitAt(curve, 'CoF', day);
      if (last === null) never[kind] += 1;
      if (isWithinInterval(kind, last?.date ?? null, day)) within[kind] += 1;
    }
  }
  return { service: figuresOf(onSchedule, within.Service, never.Service), cof: figuresOf(onSchedule, within.CoF, never.CoF) };
}

const inScope = (scope: AnalyticsSqlScope) => (c: TestCurve) =>
  (scope.division === undefined || c.divisionRailway === scope.division) &&
  (scope.section === undefined || c.section === scope.section) &&
  (scope.sse === undefined || c.sse === scope.sse);

/** Worst Service share first, groups without any curve on the schedule last, then `tie`. */
function byServiceShare<T extends ComplianceGroup>(tie: (a: T, b: T) => number) {
  return (a: T, b: T) => {
    const x = a.service.share;
    const y = b.service.share;
    if (x !== y) return x === null ? 1 : y === null ? -1 : x - y;
    return tie(a, b);
  };
}

const compareText = (a: string | null, b: string | null) => (a === b ? 0 : a === null ? 1 : b === null ? -1 : a < b ? -1 : 1);

beforeAll(async () => {
  database = await openTestDatabase();
  db = database.db;
  const rng = new Random(20260630);
  const rollouts = [{ machine: 'Done', commissioned: null }, { machine: 'Pending', commissioned: '02-Apr-2026' }, { machine: 'Pending', commissioned: 'Pending' }, null] as const;
  for (let i = 0; i < 90; i++) {
    const pick = LINES[i % 3] ?? LINES[0];
    const rollout = rng.pick(rollouts);
    curves.push({
      key: `r${i}`,
      divisionRailway: i % 2 === 0 ? 'RTM/WR' : 'FZR/NR',
      section: `SEC-${i % 4}`,
      curveNumber: String(100 + Math.floor(i / 3)),
      line: pick.line,
      recordLine: pick.recordLine,
      sse: [null, 'SSE/ALPHA', 'SSE/BRAVO', 'SSE/CHARLIE', 'SSE'][i % 5] ?? null,
      rollout: rollout && { ...rollout },
    });
  }
  const [e1, e2, e3, e4, e5, e6] = [
    edgeCurve('e1', 'EDGE-A', 'SSE/EDGE', null, LINES[1]),
    edgeCurve('e2', 'EDGE-A', 'SSE/EDGE', null),
    edgeCurve('e3', 'EDGE-A', null, { machine: 'Done', commissioned: null }),
    edgeCurve('e4', 'EDGE-C', null, null),
    edgeCurve('e5', 'EDGE-B', null, null),
    edgeCurve('e6', 'EDGE-B', null, { machine: 'Done', commissioned: null }),
  ] as const;
  curves.push(e1, e2, e3, e4, e5, e6);
  await db.insert(consolidatedCurveDetails).values(
    curves.map((c, i) => ({ no: i + 1, divisionRailway: c.divisionRailway, section: c.section, curveNumber: c.curveNumber, line: c.line, sse: c.sse })),
  );
  await db.insert(curveRecords).values(
    curves.flatMap((c, i) =>
      c.rollout ? [{ no: i + 1, divisionRailway: c.divisionRailway, section: c.section, curveNumber: c.curveNumber, line: c.line, machineActual: c.rollout.machine, commissioned: c.rollout.commissioned }] : [],
    ),
  );

  const visits: NewInspectionRow[] = [];
  for (const curve of curves.filter((c) => c.divisionRailway !== EDGE_DIVISION)) {
    // Some curves are never visited; the rest get visits over four months, a few on one day,
    // some of those uploaded at the same instant (the id decides), and some uninstalls.
    if (rng.chance(0.12)) continue;
    for (const type of ['Service', 'CoF'] as const) {
      const count = rng.int(0, 7);
      for (let n = 0; n < count; n++) {
        const date = addDays(LAST_DAY, -rng.int(0, 120));
        const submittedAt = new Date(`${date}T${String(8 + rng.int(0, 3)).padStart(2, '0')}:00:00+05:30`);
        const serviceUpdate = type === 'Service' ? (rng.chance(0.2) ? MACHINE_UNINSTALLED : 'working-fine') : null;
        visits.push(visitTo(curve, type, date, { submittedAt, serviceUpdate }));
        if (rng.chance(0.15)) visits.push(visitTo(curve, type, date, { submittedAt, serviceUpdate: type === 'Service' ? 'working-fine' : null }));
      }
    }
    // A record of another division naming this curve's section, number and line: recent, it would
    // put the curve on the schedule and within its intervals if it counted.
    if (rng.chance(0.3)) {
      const other = curve.divisionRailway === 'RTM/WR' ? 'FZR/NR' : 'RTM/WR';
      for (const type of ['Service', 'CoF'] as const) visits.push(visitTo(curve, type, addDays(LAST_DAY, -rng.int(0, 40)), { divisionRailway: other }));
    }
  }
  const D = LAST_DAY;
  visits.push(
    visitTo(e1, 'Service', addDays(D, -15)),
    visitTo(e1, 'CoF', addDays(D, -30)),
    visitTo(e2, 'Service', addDays(D, -16)),
    visitTo(e2, 'CoF', addDays(D, -31)),
    // e3: a rollout machine and no visit of its own; another division's visit lends it none.
    visitTo(e3, 'Service', addDays(D, -1), { divisionRailway: 'RTM/WR' }),
    visitTo(e3, 'CoF', addDays(D, -1), { divisionRailway: 'RTM/WR' }),
    // e4: only visits after the day.
    visitTo(e4, 'Service', addDays(D, 1)),
    visitTo(e4, 'CoF', addDays(D, 1)),
    // e5: uninstalled, then a later Service visit puts it back.
    visitTo(e5, 'Service', addDays(D, -10), { serviceUpdate: MACHINE_UNINSTALLED }),
    visitTo(e5, 'Service', addDays(D, -5)),
    // e6: the uninstall outweighs the rollout record; its CoF reading then does not count.
    visitTo(e6, 'Service', addDays(D, -3), { serviceUpdate: MACHINE_UNINSTALLED }),
    visitTo(e6, 'CoF', addDays(D, -1)),
  );
  stored = await insertInspectionRows(db, visits);
});

afterAll(async () => {
  await database?.close();
});

/** Every third day over the visits' span, from before the first to after the last, not in order. */
const DAYS = Array.from({ length: 45 }, (_, i) => addDays(LAST_DAY, 5 - 3 * i)).reverse();
const SHUFFLED_DAYS = [LAST_DAY, addDays(LAST_DAY, -200), ...DAYS.slice(0, 10), LAST_DAY];

describe('schedule compliance in SQL', () => {
  it('answers the rule at every day asked, in the order asked', async () => {
    for (const days of [DAYS, SHUFFLED_DAYS]) {
      const answers = await complianceOnDays(db, {}, days);
      expect(answers).toEqual(days.map((day) => ({ day, ...expectedAt(curves, day) })));
    }
    // The data reaches every count, so the comparison covered each branch.
    const atLast = expectedAt(curves, LAST_DAY);
    for (const figures of [atLast.service, atLast.cof]) {
      expect(figures.within).toBeGreaterThan(0);
      expect(figures.overdue).toBeGreaterThan(0);
      expect(figures.never).toBeGreaterThan(0);
    }
    expect(atLast.service.onSchedule).toBeLessThan(curves.length);
    expect(await complianceOnDays(db, {}, [])).toEqual([]);
  });

  it('holds to the edges of the intervals, the uninstall and the visits after the day', async () => {
    const D = LAST_DAY;
    const [atD, weekBefore] = await complianceOnDays(db, { division: EDGE_DIVISION }, [D, addDays(D, -7)]);
    // On the schedule at D: e1 (Service D-15, CoF D-30: within), e2 (D-16, D-31: overdue),
    // e3 (rollout, never visited), e5 (put back by the visit after its uninstall).
    expect(atD).toEqual({
      day: D,
      service: { onSchedule: 4, within: 2, overdue: 1, never: 1, share: 0.5 },
      cof: { onSchedule: 4, within: 1, overdue: 1, never: 2, share: 0.25 },
    });
    // A week before: e1 and e2 within, e3 and e6 (rollout, no visit yet) never; e5 uninstalled.
    expect(weekBefore).toEqual({
      day: addDays(D, -7),
      service: { onSchedule: 4, within: 2, overdue: 0, never: 2, share: 0.5 },
      cof: { onSchedule: 4, within: 2, overdue: 0, never: 2, share: 0.5 },
    });
  });

  it('reads the division, section and SSE of the scope', async () => {
    const scopes: AnalyticsSqlScope[] = [
      { division: 'FZR/NR' },
      { division: 'RTM/WR', section: 'SEC-2' },
      { section: 'SEC-1' },
      { sse: 'SSE/BRAVO' },
      { division: EDGE_DIVISION, sse: 'SSE/EDGE' },
      { division: 'FZR/NR', section: 'SEC-0' },
    ];
    for (const scope of scopes) {
      const days = DAYS.slice(-12);
      const mine = curves.filter(inScope(scope));
      expect(await complianceOnDays(db, scope, days), JSON.stringify(scope)).toEqual(days.map((day) => ({ day, ...expectedAt(mine, day) })));
    }
    // A scope without curves: nothing on the schedule, no share.
    const [none] = await complianceOnDays(db, { section: 'NO-SUCH-SECTION' }, [LAST_DAY]);
    expect(none?.service).toEqual({ onSchedule: 0, within: 0, overdue: 0, never: 0, share: null });
  });

  it('groups by section and by SSE, worst Service share first', async () => {
    for (const day of [LAST_DAY, DAYS[20] ?? LAST_DAY]) {
      const groups = new Map<string, TestCurve[]>();
      for (const c of curves) groups.set(JSON.stringify([c.divisionRailway, c.section]), [...(groups.get(JSON.stringify([c.divisionRailway, c.section])) ?? []), c]);
      const sections = [...groups.entries()]
        .map(([key, of]) => {
          const [divisionRailway, section] = JSON.parse(key) as [string, string];
          return { divisionRailway, section, ...expectedAt(of, day) };
        })
        .sort(byServiceShare((a, b) => compareText(a.divisionRailway, b.divisionRailway) || compareText(a.section, b.section)));
      expect(await complianceBySection(db, {}, day)).toEqual(sections);

      // The register's 'SSE' placeholder names nobody: counted with the curves of no SSE.
      const named = (sse: string | null) => (sse === 'SSE' ? null : sse);
      const sses = [...new Set(curves.map((c) => named(c.sse)))]
        .map((sse) => ({ sse, ...expectedAt(curves.filter((c) => named(c.sse) === sse), day) }))
        .sort(byServiceShare((a, b) => compareText(a.sse, b.sse)));
      expect(await complianceBySse(db, {}, day)).toEqual(sses);
    }
    // The edge division at D: EDGE-A 1 of 3 within, EDGE-B 1 of 1, EDGE-C none on the schedule.
    const edge = await complianceBySection(db, { division: EDGE_DIVISION }, LAST_DAY);
    expect(edge.map((g) => [g.section, g.service.share])).toEqual([
      ['EDGE-A', 1 / 3],
      ['EDGE-B', 1],
      ['EDGE-C', null],
    ]);
    const edgeSses = await complianceBySse(db, { division: EDGE_DIVISION }, LAST_DAY);
    expect(edgeSses.map((g) => [g.sse, g.service.onSchedule, g.service.within])).toEqual([
      ['SSE/EDGE', 2, 1],
      [null, 2, 1],
    ]);
  });
});
