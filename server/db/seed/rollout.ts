/**
 * Machine roll-out: which curves are in scope for a lubricator, how far each has got
 * (foundation, machine, commissioning), and the figures derived from that. Every summary
 * (curve_records, machine_details, machine_dashboard_summary, controller mapping) is
 * counted from the same per-curve progress, so the dashboards agree with each other, except
 * where the owner's figures run ahead of the sheet (SUMMARY_AHEAD_OF_SHEET): the reports
 * landing then shows both.
 */
import type { Division } from '../../../common/constants.js';
import type { curveRecords, hkmControllerMapping, machineDashboardSummary, machineDetails } from '../schema.js';
import { addDays, istInstant, sheetDate } from './calendar.js';
import type { DemoCurve } from './curves.js';
import { Random, SEEDS } from './random.js';
import { DIVISION_REFS } from './reference-data.js';

type NewCurveRecordRow = typeof curveRecords.$inferInsert;
type NewMachineDetailRow = typeof machineDetails.$inferInsert;
type NewControllerMappingRow = typeof hkmControllerMapping.$inferInsert;
type NewDashboardRow = typeof machineDashboardSummary.$inferInsert;

/** A curve whose machine has been commissioned, with the day it went into service. */
export interface CommissionedCurve {
  curve: DemoCurve;
  commissionedOn: string;
}

export interface DemoRollout {
  curveRecords: NewCurveRecordRow[];
  machineDetails: NewMachineDetailRow[];
  hkmControllerMappings: NewControllerMappingRow[];
  dashboardSummaries: NewDashboardRow[];
  commissioned: CommissionedCurve[];
}

interface Progress {
  curve: DemoCurve;
  phase: 'I' | 'II';
  /** Dates are null where the stage is still pending. */
  foundationOn: string | null;
  machineOn: string | null;
  commissionedOn: string | null;
  /** Early entries were ticked off as 'Done' on the sheet without a date. */
  undated: boolean;
}

interface Counts {
  scope: number;
  foundation: number;
  installed: number;
  commissioned: number;
  foundationOn: string | null;
  installedOn: string | null;
  commissionedOn: string | null;
}

/**
 * FZR/NR's figures as reported to the railway run ahead of its rollout sheet: the sanctioned
 * scope has curves the sheet does not list yet, and two commissionings were reported from the
 * field before the sheet was brought up to date.
 */
const SUMMARY_AHEAD_OF_SHEET: Partial<Record<Division, { scope: number; machinesCommissioned: number }>> = {
  'FZR/NR': { scope: 6, machinesCommissioned: 2 },
};

/** Phase I (the first two sections of each division) started earlier and is further along. */
const PHASES = {
  I: { inScope: 0.75, foundation: 0.95, machine: 0.9, commissioned: 0.9, startedDaysAgo: [330, 620] },
  II: { inScope: 0.45, foundation: 0.7, machine: 0.6, commissioned: 0.65, startedDaysAgo: [150, 320] },
} as const;
export type RolloutPhase = keyof typeof PHASES;

/**
 * One curve's stages at its phase's odds: each done some days after the one before, or not yet;
 * a few of phase I's ticked 'Done' without a date. The scale seed draws its records the same way.
 */
export function drawStages(rng: Random, phase: RolloutPhase, today: string) {
  const odds = PHASES[phase];
  const foundationOn = rng.chance(odds.foundation) ? addDays(today, -rng.int(odds.startedDaysAgo[0], odds.startedDaysAgo[1])) : null;
  const machineOn = foundationOn && rng.chance(odds.machine) ? addDays(foundationOn, rng.int(15, 60)) : null;
  const commissionedOn = machineOn && rng.chance(odds.commissioned) ? addDays(machineOn, rng.int(5, 30)) : null;
  const undated = phase === 'I' && rng.chance(0.08);
  return { foundationOn, machineOn, commissionedOn, undated };
}

export function buildRollout(curves: readonly DemoCurve[], today: string): DemoRollout {
  const rng = new Random(SEEDS.rollout);
  const progress = curves.flatMap((curve) => {
    const division = DIVISION_REFS.find((d) => d.division === curve.divisionRailway);
    const sectionIndex = division?.sections.findIndex((s) => s.name === curve.section) ?? 0;
    const phase: RolloutPhase = sectionIndex < 2 ? 'I' : 'II';
    if (!rng.chance(PHASES[phase].inScope)) return [];
    return [{ curve, phase, ...drawStages(rng, phase, today) } satisfies Progress];
  });

  const noInDivision = new Map<string, number>();
  const curveRecordRows = progress.map((p): NewCurveRecordRow => {
    const no = (noInDivision.get(p.curve.divisionRailway) ?? 0) + 1;
    noInDivision.set(p.curve.divisionRailway, no);
    return {
      no,
      phase: p.phase,
      divisionRailway: p.curve.divisionRailway,
      section: p.curve.section,
      curveNumber: p.curve.curveNumber,
      line: p.curve.line,
      den: p.curve.den,
      aen: p.curve.aen,
      sse: p.curve.sse,
      foundationActual: sheetEntry(p.foundationOn, p.undated),
      machineActual: sheetEntry(p.machineOn, p.undated),
      commissioned: sheetEntry(p.commissionedOn, false),
    };
  });

  const machineDetailRows: NewMachineDetailRow[] = [];
  const dashboardRows: NewDashboardRow[] = [];
  for (const division of DIVISION_REFS) {
    const inDivision = progress.filter((p) => p.curve.divisionRailway === division.division);
    const total = count(inDivision);
    machineDetailRows.push(detailRow(division.division, 'DIV', division.zone, total));
    const ahead = SUMMARY_AHEAD_OF_SHEET[division.division];
    dashboardRows.push({
      division: division.division,
      scope: total.scope + (ahead?.scope ?? 0),
      foundationCompleted: total.foundation,
      machinesInstalled: total.installed,
      // Never more than installed: the figures must stay possible.
      machinesCommissioned: Math.min(total.installed, total.commissioned + (ahead?.machinesCommissioned ?? 0)),
    });
    for (const section of division.sections) {
      const inSection = inDivision.filter((p) => p.curve.section === section.name);
      if (inSection.length > 0) machineDetailRows.push(detailRow(section.name, 'SEC', division.division, count(inSection)));
    }
  }

  // Controller serials are issued in installation order, with gaps for units sent elsewhere.
  const installed = progress
    .filter((p): p is Progress & { machineOn: string } => p.machineOn !== null)
    .sort((a, b) => a.machineOn.localeCompare(b.machineOn) || a.curve.hkmCode - b.curve.hkmCode);
  let serial = 24_100;
  const mappings = installed.map((p): NewControllerMappingRow => {
    serial += rng.int(1, 3);
    return { hkmCode: p.curve.hkmCode, controllerNumber: serial };
  });

  return {
    curveRecords: curveRecordRows,
    machineDetails: machineDetailRows,
    hkmControllerMappings: mappings,
    dashboardSummaries: dashboardRows,
    commissioned: progress.flatMap((p) => (p.commissionedOn ? [{ curve: p.curve, commissionedOn: p.commissionedOn }] : [])),
  };
}

/** A stage as the rollout sheet writes it: its date, 'Done' without one, or 'Pending'. */
export function sheetEntry(date: string | null, undated: boolean): string {
  if (!date) return 'Pending';
  return undated ? 'Done' : sheetDate(date);
}

function count(progress: readonly Progress[]): Counts {
  const latest = (dates: ReadonlyArray<string | null>): string | null =>
    dates.reduce<string | null>((max, d) => (d && (!max || d > max) ? d : max), null);
  return {
    scope: progress.length,
    foundation: progress.filter((p) => p.foundationOn).length,
    installed: progress.filter((p) => p.machineOn).length,
    commissioned: progress.filter((p) => p.commissionedOn).length,
    foundationOn: latest(progress.map((p) => p.foundationOn)),
    installedOn: latest(progress.map((p) => p.machineOn)),
    commissionedOn: latest(progress.map((p) => p.commissionedOn)),
  };
}

function detailRow(jurisdiction: string, level: 'DIV' | 'SEC', parent: Division | string, counts: Counts): NewMachineDetailRow {
  // Stored as the end of the working day in IST: a date-only figure must not slip a day in UTC.
  const at = (date: string | null): Date | null => (date ? istInstant(date, 18 * 60) : null);
  return {
    jurisdiction,
    level,
    parentJurisdiction: parent,
    curveCount: counts.scope,
    foundationCompleted: counts.foundation,
    machinesInstalled: counts.installed,
    machinesCommissioned: counts.commissioned,
    foundationCompletedDate: at(counts.foundationOn),
    machinesInstalledDate: at(counts.installedOn),
    machinesCommissionedDate: at(counts.commissionedOn),
  };
}
