/**
 * The demo's year of history tells the dashboard's story (./history.ts), read with the
 * dashboard's own definitions (common/rules/analytics.ts) over the planned records.
 */
import { describe, expect, it } from 'vitest';
import { DIVISIONS } from '../../../common/constants.js';
import { isRising, isWithinInterval, percentileOf, periodsOf } from '../../../common/rules/analytics.js';
import { addDays } from '../../../common/rules/dates.js';
import { rolloutHasMachine } from '../../../common/rules/rollout.js';
import { buildDemoDataset } from './dataset.js';
import { STORY } from './history.js';

const TODAY = '2025-03-15';
const dataset = buildDemoDataset(TODAY);
const records = dataset.inspections.map((i) => i.fields);
const keyOf = (c: { section: string; curveNumber: string; line: string }) => `${c.section}|${c.curveNumber}|${c.line}`;
// The twelve whole months before this one.
const months = periodsOf(addDays(TODAY, -380), addDays(`${TODAY.slice(0, 8)}01`, -1), 'month').slice(-12);
const mean = (values: readonly number[]) => values.reduce((sum, v) => sum + v, 0) / values.length;
const byDateThenUpload = (a: (typeof records)[number], b: (typeof records)[number]) =>
  a.date.localeCompare(b.date) || a.submittedAt.getTime() - b.submittedAt.getTime();

function serviceCompliance(division: string, day: string): number {
  const onSchedule = dataset.curveRecords
    .filter((r) => r.divisionRailway === division && rolloutHasMachine({ machine: r.machineActual ?? null, commissioned: r.commissioned ?? null }))
    .map(keyOf);
  const within = onSchedule.filter((key) => {
    const last = records.filter((r) => keyOf(r) === key && r.type === 'Service' && r.date <= day).map((r) => r.date).sort().at(-1);
    return isWithinInterval('Service', last ?? null, day);
  });
  return within.length / onSchedule.length;
}

describe('the demo history', () => {
  it('covers the year before today', () => {
    expect(records.every((r) => r.date < TODAY && r.date >= addDays(TODAY, -365))).toBe(true);
    expect(records.filter((r) => r.date < addDays(TODAY, -300)).length).toBeGreaterThan(50);
  });

  it('shows one division improving its Service compliance more than any other', () => {
    const rise = (division: string) => {
      const figures = months.map((m) => serviceCompliance(division, m.end));
      return mean(figures.slice(-3)) - mean(figures.slice(0, 3));
    };
    const improving = rise(STORY.improvingDivision);
    expect(improving).toBeGreaterThan(0.35);
    for (const division of DIVISIONS.filter((d) => d !== STORY.improvingDivision)) expect(rise(division), division).toBeLessThan(improving);
  });

  it('shows friction rising in one section: its median up and some curves reading higher each time', () => {
    const median = (period: { start: string; end: string }) =>
      percentileOf(
        records.filter((r) => r.section === STORY.risingFrictionSection && r.type === 'CoF' && r.date >= period.start && r.date <= period.end).map((r) => Number(r.cofValue)),
        0.5,
      ) ?? 0;
    expect(mean(months.slice(-3).map(median))).toBeGreaterThan(mean(months.slice(0, 6).map(median)) + 0.08);
    const rising = [...new Set(records.filter((r) => r.section === STORY.risingFrictionSection).map(keyOf))].filter((key) =>
      isRising(records.filter((r) => keyOf(r) === key && r.type === 'CoF').sort(byDateThenUpload).slice(-3).map((r) => Number(r.cofValue))),
    );
    expect(rising.length).toBeGreaterThanOrEqual(3);
  });

  it('puts one stolen part at the head of the Pareto, well ahead of the next', () => {
    const counts = new Map<string, number>();
    for (const r of records.filter((x) => x.partItemName)) counts.set(`${r.serviceUpdate} ${r.partItemName}`, (counts.get(`${r.serviceUpdate} ${r.partItemName}`) ?? 0) + 1);
    const [head, next] = [...counts.entries()].sort((a, b) => b[1] - a[1]);
    expect(head?.[0]).toBe(`part-stolen ${STORY.theft.itemName}`);
    expect(head?.[1]).toBeGreaterThanOrEqual(2 * (next?.[1] ?? 0));
  });

  it('has blocked machines whose last two Service visits read grease depth 0', () => {
    const dry = [...new Set(records.map(keyOf))].filter((key) => {
      const lastTwo = records.filter((r) => keyOf(r) === key && r.type === 'Service').sort(byDateThenUpload).slice(-2);
      return lastTwo.length === 2 && lastTwo.every((r) => Number(r.greaseDepth) === 0);
    });
    expect(dry.length).toBe(STORY.dryCurves);
  });

  it('gives the technicians different amounts of work', () => {
    const visits = new Map<string, number>();
    for (const r of records) visits.set(r.technicianId, (visits.get(r.technicianId) ?? 0) + 1);
    expect(Math.max(...visits.values())).toBeGreaterThan(1.3 * Math.min(...visits.values()));
  });
});
