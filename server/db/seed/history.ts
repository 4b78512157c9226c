/**
 * The year of field work before the demo's window (./inspections.ts), so that Reports &
 * Analytics opens on a story rather than two months of noise:
 *   - RTM/WR improves: a year ago its machines were serviced every six weeks or so, now every ten
 *     days or so (a second technician lends a hand from mid-year), while the other divisions
 *     keep a steady two to five weeks;
 *   - friction rises in JBP-ET: its CoF readings creep up over the last six months, most of its
 *     measured curves read higher each time, and its latest readings are above the alert
 *     threshold, so its 'cof-high' actions are open;
 *   - the solar panels of NDLS-GZB are stolen again and again, the head of the parts Pareto;
 *   - faults are fixed by a return visit a few days later, so actions close with days to close;
 *   - a blocked machine or two read grease depth 0 at their last two services.
 *
 * The window's current state stays: each curve's history ends before its first visit in the
 * window, with the machine working and the CoF within the threshold, so the window's visits open
 * and close the actions they did before. The window is touched only where the story needs it:
 * visits added before each curve's first one in the window (the year's rhythm carries on to it),
 * JBP-ET's readings in the window continue the rise, the blocked machines' last service reads 0,
 * and RTM/WR's machines are serviced on time but for its two longest overdue.
 */
import type { Division } from '../../../common/constants.js';
import { daysBetween } from '../../../common/rules/dates.js';
import { addDays } from './calendar.js';
import type { DemoCurve } from './curves.js';
import { cofReading, partFor, recordVisit, serviceVisit, WINDOW_DAYS, type DemoInspection, type Findings } from './inspections.js';
import { Random, SEEDS } from './random.js';
import { DIVISION_REFS } from './reference-data.js';
import type { CommissionedCurve } from './rollout.js';

export const HISTORY_DAYS = 365;

export const STORY = {
  improvingDivision: 'RTM/WR' as Division,
  /** Lends a hand in the improving division once its rhythm tightens. */
  helpingTechnicianId: 'TEC2003',
  risingFrictionSection: 'JBP-ET',
  theft: { section: 'NDLS-GZB', category: 'Solar & Battery', itemName: 'Solar Panel 40 W' },
  /** Blocked machines: their last two Service visits read grease depth 0. */
  dryCurves: 2,
  /** The improving division's curves left overdue today, the longest overdue first. */
  improvingOverdue: 2,
} as const;

const FRICTION_RISE_DAYS = 180;
/** Days between the last visit a curve's history adds and its first visit in the window. */
const GAP_BEFORE_WINDOW = 4;

type Fault = 'part-broken' | 'part-stolen' | 'machine-not-working';

/** The window's visits (./inspections.ts), shaped where the story needs it, with the year before added; in upload order. */
export function addHistory(commissioned: readonly CommissionedCurve[], window: readonly DemoInspection[], today: string): DemoInspection[] {
  const rng = new Random(SEEDS.history);
  const windowStart = addDays(today, -WINDOW_DAYS);
  const historyStart = addDays(today, -HISTORY_DAYS);
  const recordIds = new Set(window.map((i) => i.fields.recordId));
  const shaped = window.map((i) => ({ ...i, fields: { ...i.fields } }));
  const added: DemoInspection[] = [];
  const dry = dryCurveKeys(commissioned, shaped);

  for (const division of DIVISION_REFS) {
    const improving = division.division === STORY.improvingDivision;
    for (const { curve, commissionedOn } of commissioned.filter((c) => c.curve.divisionRailway === division.division)) {
      const visits = shaped.filter((i) => sameCurve(i, curve));
      const firstOf = (type: 'Service' | 'CoF') => visits.filter((i) => i.fields.type === type).map((i) => i.fields.date).sort()[0];
      const start = maxDate(historyStart, addDays(commissionedOn, 1 + rng.int(0, 10)));
      // A year's progress through the history: the improving division's rhythm tightens with it.
      const progress = (date: string) => Math.min(1, Math.max(0, daysBetween(historyStart, date) / (HISTORY_DAYS - WINDOW_DAYS)));
      const visit = (date: string, type: 'Service' | 'CoF', findings: (r: Random) => Findings) => {
        const helper = improving && progress(date) > 0.5 && rng.chance(0.4);
        const second = division.technicianIds.length > 1 && rng.chance(0.3);
        const technicianId = helper ? STORY.helpingTechnicianId : ((second ? division.technicianIds[1] : division.technicianIds[0]) ?? '');
        const record = recordVisit(rng, { curve, date, type, technicianId, recordIds }, findings);
        added.push(date < windowStart ? { ...record, reducedPhoto: true } : record);
      };

      // Service: every two to five weeks (the improving division: from six weeks down to ten days).
      const serviceEnd = addDays(firstOf('Service') ?? today, -GAP_BEFORE_WINDOW);
      const interval = (date: string) => {
        if (!improving) return rng.int(16, 36);
        const mean = Math.round(44 - 33 * progress(date));
        return rng.int(Math.max(7, mean - 5), mean + 5);
      };
      const isDry = dry.has(keyOf(curve));
      const theftSection = curve.section === STORY.theft.section;
      const serviceDates: string[] = [];
      for (let date = addDays(start, rng.int(0, 14)); date <= serviceEnd; date = addDays(date, interval(date))) serviceDates.push(date);
      for (let i = 0; i < serviceDates.length; i++) {
        const date = serviceDates[i] as string;
        const last = i === serviceDates.length - 1;
        if (isDry && last) {
          visit(date, 'Service', () => serviceVisit({ update: 'working-fine', working: false, depth: 0 }));
          continue;
        }
        // In the window only the thefts go on; elsewhere the added visits there find all well.
        const fault = date < windowStart || theftSection ? faultAt(rng, theftSection) : null;
        const fixedOn = fault ? addDays(date, fixDays(rng, fault)) : null;
        const next = serviceDates[i + 1];
        // A fault is fixed by a return visit before the rhythm's next one; the last visit before the window finds all well.
        if (fault && fixedOn && next && fixedOn < next) {
          visit(date, 'Service', (r) => faultFindings(r, fault, theftSection));
          visit(fixedOn, 'Service', (r) => cleanService(r));
        } else {
          visit(date, 'Service', (r) => cleanService(r));
        }
      }

      // CoF: only where the window has a reading (the rest of the machines are still "CoF never done").
      const firstCof = firstOf('CoF');
      if (!firstCof) continue;
      const rising = curve.section === STORY.risingFrictionSection;
      const cofDates: string[] = [];
      const cofEnd = addDays(firstCof, -GAP_BEFORE_WINDOW);
      for (let date = addDays(start, rng.int(0, 20)); date <= cofEnd; date = addDays(date, rising ? rng.int(24, 34) : rng.int(30, 60))) {
        cofDates.push(date);
      }
      if (rising) {
        risingReadings(rng, today, [...cofDates, firstCof], visits.filter((i) => i.fields.type === 'CoF')).forEach((cof, i) => {
          const date = cofDates[i];
          if (date) visit(date, 'CoF', (r) => cofReading(r, curve, cof));
        });
        continue;
      }
      cofDates.forEach((date, i) => {
        const next = cofDates[i + 1];
        const remeasureOn = addDays(date, rng.int(4, 12));
        // A dry reading now and then, measured again after re-greasing; the last before the window is within the threshold.
        if (date < windowStart && next && remeasureOn < next && rng.chance(0.08)) {
          visit(date, 'CoF', (r) => cofReading(r, curve, r.float(0.3, 0.42)));
          visit(remeasureOn, 'CoF', (r) => cofReading(r, curve, r.float(0.15, 0.22)));
        } else {
          visit(date, 'CoF', (r) => cofReading(r, curve, r.float(0.14, 0.245)));
        }
      });
    }
  }

  for (const inspection of shaped) {
    if (dry.has(keyOf(inspection.fields)) && inspection.fields.type === 'Service') inspection.fields.greaseDepth = '0.0';
  }
  added.push(...serviceOnTime(rng, commissioned, shaped, recordIds, today));
  return [...shaped, ...added].sort((a, b) => a.fields.submittedAt.getTime() - b.fields.submittedAt.getTime());
}

/**
 * A rising curve's readings, oldest first, the last its reading in the window (which is
 * rewritten to fit): level for a year, then creeping up over the last months, each of a
 * rising curve's last four higher than the one before; one curve in three wavers instead.
 */
function risingReadings(rng: Random, today: string, dates: readonly string[], windowReadings: DemoInspection[]): number[] {
  const base = rng.float(0.15, 0.19);
  const rise = rng.float(0.14, 0.2);
  const wavers = rng.chance(1 / 3);
  const riseStart = addDays(today, -FRICTION_RISE_DAYS);
  const values = dates.map((date) => {
    const into = Math.max(0, daysBetween(riseStart, date)) / FRICTION_RISE_DAYS;
    return base + rise * into + rng.float(-0.015, 0.015);
  });
  if (!wavers) {
    for (let i = Math.max(1, values.length - 4); i < values.length; i++) {
      values[i] = Math.max(values[i] as number, (values[i - 1] as number) + 0.01);
    }
  }
  const rounded = values.map((v) => Number(v.toFixed(2)));
  // The window's reading (its first, which is its only one) continues the series.
  const windowReading = windowReadings.sort((a, b) => a.fields.date.localeCompare(b.fields.date))[0];
  const last = rounded[rounded.length - 1];
  if (windowReading && last !== undefined) windowReading.fields.cofValue = last.toFixed(2);
  return rounded;
}

function faultAt(rng: Random, theftSection: boolean): Fault | null {
  if (theftSection && rng.chance(0.2)) return 'part-stolen';
  return rng.weighted<Fault | null>([
    [null, 91],
    ['part-broken', 5],
    ['part-stolen', 1.5],
    ['machine-not-working', 2.5],
  ]);
}

/** Days until the return visit that fixes it: a machine that does not work is seen to first. */
function fixDays(rng: Random, fault: Fault): number {
  if (fault === 'machine-not-working') return rng.int(2, 6);
  return fault === 'part-broken' ? rng.int(3, 9) : rng.int(4, 12);
}

function faultFindings(rng: Random, fault: Fault, theftSection: boolean): Findings {
  if (fault === 'machine-not-working') return serviceVisit({ update: 'working-fine', working: false, depth: rng.float(0.5, 3) });
  const part = fault === 'part-stolen' && theftSection ? STORY.theft : (partFor(rng, fault) ?? null);
  return serviceVisit({ update: fault, working: fault === 'part-broken' ? rng.chance(0.35) : false, depth: rng.float(0.5, 4), part });
}

function cleanService(rng: Random): Findings {
  return serviceVisit({ update: 'working-fine', working: true, depth: rng.float(3, 8.5) });
}

/**
 * The blocked machines: curves outside the story's sections whose one Service in the window found
 * the machine not working (so reading 0 there changes no action), the register's first of a division.
 */
function dryCurveKeys(commissioned: readonly CommissionedCurve[], window: readonly DemoInspection[]): Set<string> {
  const candidates = commissioned
    .map(({ curve }) => curve)
    .filter((curve) => curve.section !== STORY.risingFrictionSection && curve.section !== STORY.theft.section)
    .filter((curve) => {
      const services = window.filter((i) => sameCurve(i, curve) && i.fields.type === 'Service');
      return services.length === 1 && services[0]?.fields.isMachineWorking === false && services[0].fields.serviceUpdate !== 'uninstall';
    })
  // One a division, so they are not all in one place.
  const firstOfEachDivision = DIVISION_REFS.flatMap((d) => candidates.find((curve) => curve.divisionRailway === d.division) ?? []);
  return new Set(firstOfEachDivision.slice(0, STORY.dryCurves).map(keyOf));
}

/**
 * The improving division today: a visit in the last fortnight on each curve overdue whose last
 * service found all well, except its longest overdue, so its overdue list is short but not empty.
 */
function serviceOnTime(
  rng: Random,
  commissioned: readonly CommissionedCurve[],
  window: readonly DemoInspection[],
  recordIds: Set<string>,
  today: string,
): DemoInspection[] {
  const technicianId = DIVISION_REFS.find((d) => d.division === STORY.improvingDivision)?.technicianIds[0] ?? '';
  const overdue = commissioned
    .filter(({ curve }) => curve.divisionRailway === STORY.improvingDivision)
    .flatMap(({ curve }) => {
      const last = window
        .filter((i) => sameCurve(i, curve) && i.fields.type === 'Service')
        .sort((a, b) => a.fields.date.localeCompare(b.fields.date))
        .at(-1);
      return last && daysBetween(last.fields.date, today) > 15 ? [{ curve, last: last.fields }] : [];
    })
    .sort((a, b) => a.last.date.localeCompare(b.last.date) || a.curve.hkmCode - b.curve.hkmCode);
  return overdue
    .slice(STORY.improvingOverdue)
    .filter(({ last }) => last.serviceUpdate === 'working-fine' && last.isMachineWorking === true)
    .map(({ curve }) => recordVisit(rng, { curve, date: addDays(today, -rng.int(2, 12)), type: 'Service', technicianId, recordIds }, cleanService));
}

function keyOf(c: { section: string; curveNumber: string; line: string }): string {
  return `${c.section}|${c.curveNumber}|${c.line}`;
}

function sameCurve(inspection: DemoInspection, curve: DemoCurve): boolean {
  return keyOf(inspection.fields) === keyOf(curve);
}

function maxDate(a: string, b: string): string {
  return a > b ? a : b;
}
