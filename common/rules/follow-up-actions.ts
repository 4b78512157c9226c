/**
 * Follow-up actions: what a visit reports as a fault, and what a later visit proves fixed.
 *
 * A Service visit that reports a broken or stolen part, or a machine that is not working, and a
 * CoF reading above the alert threshold each open an action on that curve and line. One action
 * per curve, line and kind stays open: a repeat report joins it. The action closes only on
 * proof, a later visit of the same curve and line that passes:
 *   - a Service visit with 'Machine is working fine' and machine working = yes closes the part
 *     and machine actions;
 *   - a CoF reading within the threshold (equal to it is within) closes the CoF action.
 * "Later" is the visits' order: by the visit's date, then by the order they were stored (the
 * schedule's own order of visits), so a fix uploaded from an outbox after a newer fault does
 * not close it.
 *
 * The server applies this rule when a record is stored (server/features/actions); the phone
 * applies kindsClosedBy to the records in its outbox, so a fix made offline leaves its due
 * list at once.
 */
import { isCofHigh } from './schedule.js';

export const ACTION_KINDS = ['machine-not-working', 'part-stolen', 'part-broken', 'cof-high'] as const;
export type ActionKind = (typeof ACTION_KINDS)[number];

export const ACTION_STATES = ['open', 'closed'] as const;
export type ActionState = (typeof ACTION_STATES)[number];

export const ACTION_SEVERITIES = ['high', 'medium'] as const;
export type ActionSeverity = (typeof ACTION_SEVERITIES)[number];

/**
 * Each kind's severity and the days allowed to fix it (FOLLOW_UP_DUE_DAYS overrides the days).
 * A machine that is not working leaves the curve without grease at all; a CoF reading above the
 * target is re-measured after re-greasing.
 */
export const DEFAULT_ACTION_POLICY: Readonly<Record<ActionKind, { severity: ActionSeverity; dueDays: number }>> = {
  'machine-not-working': { severity: 'high', dueDays: 2 },
  'part-stolen': { severity: 'high', dueDays: 7 },
  'part-broken': { severity: 'medium', dueDays: 7 },
  'cof-high': { severity: 'medium', dueDays: 3 },
};

export type ActionDueDays = Readonly<Record<ActionKind, number>>;

export const DEFAULT_ACTION_DUE_DAYS: ActionDueDays = {
  'machine-not-working': DEFAULT_ACTION_POLICY['machine-not-working'].dueDays,
  'part-stolen': DEFAULT_ACTION_POLICY['part-stolen'].dueDays,
  'part-broken': DEFAULT_ACTION_POLICY['part-broken'].dueDays,
  'cof-high': DEFAULT_ACTION_POLICY['cof-high'].dueDays,
};

/** How a person names each kind: in the due list, the Actions view and the reports. */
export const ACTION_KIND_TEXT: Readonly<Record<ActionKind, string>> = {
  'machine-not-working': 'Machine not working',
  'part-stolen': 'Part stolen',
  'part-broken': 'Part broken',
  'cof-high': 'CoF high',
};

/** The fields of a visit the rule reads (a stored record, or a record still in a phone's outbox). */
export interface VisitFacts {
  type: 'Service' | 'CoF';
  serviceUpdate: string | null;
  partCategory: string | null;
  partItemName: string | null;
  isMachineWorking: boolean | null;
  /** The CoF reading as a number, or null. */
  cofValue: number | null;
}

export interface ReportedFault {
  kind: ActionKind;
  /** What was reported, as a person reads it: "Pump – Motor", "Machine not working", "CoF 0.32". */
  reported: string;
}

function partText(visit: VisitFacts): string {
  const part = [visit.partCategory, visit.partItemName].filter((p): p is string => !!p && p.trim() !== '').join(' – ');
  return part || 'part not named';
}

/** The faults a visit reports, each opening (or joining) one action. */
export function faultsReportedBy(visit: VisitFacts, cofAlertThreshold: number): ReportedFault[] {
  if (visit.type === 'CoF') {
    return isCofHigh(visit.cofValue, cofAlertThreshold) ? [{ kind: 'cof-high', reported: `CoF ${visit.cofValue?.toFixed(2)}` }] : [];
  }
  const faults: ReportedFault[] = [];
  if (visit.serviceUpdate === 'part-broken') faults.push({ kind: 'part-broken', reported: partText(visit) });
  if (visit.serviceUpdate === 'part-stolen') faults.push({ kind: 'part-stolen', reported: partText(visit) });
  if (visit.isMachineWorking === false) faults.push({ kind: 'machine-not-working', reported: 'Machine not working' });
  return faults;
}

/** The kinds of action a visit proves fixed on its curve and line. */
export function kindsClosedBy(visit: VisitFacts, cofAlertThreshold: number): ActionKind[] {
  if (visit.type === 'CoF') {
    return visit.cofValue !== null && !isCofHigh(visit.cofValue, cofAlertThreshold) ? ['cof-high'] : [];
  }
  if (visit.serviceUpdate === 'working-fine' && visit.isMachineWorking === true) return ['part-broken', 'part-stolen', 'machine-not-working'];
  return [];
}

export const AGEING_BANDS = ['0-2', '3-7', '8-30', 'over-30'] as const;
export type AgeingBand = (typeof AGEING_BANDS)[number];

/** An open action's age in days (today - opened on) in the Actions view's bands. */
export function ageingBandOf(ageDays: number): AgeingBand {
  if (ageDays <= 2) return '0-2';
  if (ageDays <= 7) return '3-7';
  if (ageDays <= 30) return '8-30';
  return 'over-30';
}
