/**
 * The due states of the technician's curves, worked out on the phone from the schedule kept
 * on it (GET /api/schedule) and the visits still waiting in its outbox, with the one shared
 * rule (common/rules/schedule.ts) for whatever day it is: offline for a week, the states still
 * move on, and a curve serviced a minute ago leaves the due list before the record is sent.
 * Whether a curve has a machine at all is worked out here too: the server's answer carries
 * what the rollout record says, and a Service visit in the outbox (or its 'Uninstall the
 * machine') counts at once.
 */
import { t } from '@lingui/core/macro';
import type { InspectionType } from '../../../../common/constants.js';
import { lineFromCode } from '../../../../common/rules/line-codes.js';
import {
  type CofSchedule,
  curveSchedule,
  type KindSchedule,
  type LastCof,
  type LastService,
  needsAttention,
  urgency,
} from '../../../../common/rules/schedule.js';
import type { ScheduleEntry, ScheduleResponse } from '../../../../common/schemas/schedule.js';
import type { WaitingVisit } from '../outbox/index.js';

// The two inspection types, values stored in English (named, so the i18n lint reads them as values).
export const SERVICE_TYPE: InspectionType = 'Service';
export const COF_TYPE: InspectionType = 'CoF';

/** A visit recorded on this phone and not on the server yet. */
export type LocalVisit = WaitingVisit;

export interface CurveSchedule {
  entry: ScheduleEntry;
  service: KindSchedule;
  cof: CofSchedule;
}

/** Section + curve number + line as the records spell the line: a curve's key everywhere. */
export function curveKey(section: string, curveNumber: string, line: string): string {
  return `${section}\u0000${curveNumber}\u0000${lineFromCode(line) ?? line}`;
}

/** The later of two visits; on the same date the local one, which was recorded after the server's answer. */
function later<T extends { date: string }>(known: T | null, local: T | null): T | null {
  if (local === null) return known;
  if (known === null) return local;
  return local.date >= known.date ? local : known;
}

export function buildCurveSchedules(
  response: ScheduleResponse,
  waiting: readonly LocalVisit[],
  today: string,
): Map<string, CurveSchedule> {
  const localLast = new Map<string, { service: LastService | null; cof: LastCof | null }>();
  for (const visit of waiting) {
    const key = curveKey(visit.section, visit.curveNumber, visit.line);
    const last = localLast.get(key) ?? { service: null, cof: null };
    if (visit.type === 'Service') last.service = later(last.service, { date: visit.date, serviceUpdate: visit.serviceUpdate });
    else last.cof = later(last.cof, { date: visit.date, cofValue: visit.cofValue === null ? null : Number(visit.cofValue) });
    localLast.set(key, last);
  }
  const schedules = new Map<string, CurveSchedule>();
  for (const entry of response.curves) {
    const key = curveKey(entry.section, entry.curveNumber, entry.line);
    const local = localLast.get(key);
    const knownService = entry.service.lastDate === null ? null : { date: entry.service.lastDate, serviceUpdate: entry.service.serviceUpdate };
    const knownCof = entry.cof.lastDate === null ? null : { date: entry.cof.lastDate, cofValue: entry.cof.lastValue };
    const { service, cof } = curveSchedule(
      { rolloutMachine: entry.rolloutMachine, lastService: later(knownService, local?.service ?? null), lastCof: later(knownCof, local?.cof ?? null) },
      today,
      response.cofAlertThreshold,
    );
    schedules.set(key, { entry, service, cof });
  }
  return schedules;
}

/**
 * common/rules/schedule.ts's scheduleLabel (which the server's reports write in English) in
 * the language shown; the English is the same word for word (curve-schedule.test.ts).
 */
function scheduleText(kind: InspectionType, schedule: KindSchedule): string {
  // The inspection type is a value stored in English; only its name is the reader's.
  const visit = kind === 'Service' ? t`Service` : kind;
  const days = schedule.state === 'overdue' ? schedule.daysOverdue : (schedule.daysUntilDue ?? 0);
  switch (schedule.state) {
    case 'overdue':
      return t`${visit} overdue ${days} d`;
    case 'due-soon':
      return days === 0 ? t`${visit} due today` : t`${visit} due in ${days} d`;
    case 'never':
      return t`${visit} never done`;
    case 'not-needed':
      return t`Machine uninstalled`;
    case 'no-machine':
      return t`No machine`;
    case 'in-time':
      return t`${visit} in time, ${days} d left`;
  }
}

/** 'Service overdue 6 d', 'CoF due in 2 d', 'CoF in time, 20 d left · CoF high: follow up'. */
export function statusText(kind: InspectionType, schedule: CurveSchedule): string {
  if (kind === 'Service') return scheduleText(kind, schedule.service);
  const label = scheduleText(kind, schedule.cof);
  if (!schedule.cof.high) return label;
  const high = t`CoF high: follow up`;
  return `${label} · ${high}`;
}

export interface DueItem {
  schedule: CurveSchedule;
  /** The visit to make first: the more urgent of the two. */
  kind: InspectionType;
  urgency: number;
}

/** The curves of these sections that need a visit, the most overdue first. */
export function dueItems(schedules: Iterable<CurveSchedule>, sections: ReadonlySet<string>): DueItem[] {
  const items: DueItem[] = [];
  for (const schedule of schedules) {
    if (!sections.has(schedule.entry.section)) continue;
    const service = needsAttention(schedule.service) ? urgency(schedule.service) : null;
    // A high reading is followed up like a measurement due today.
    const cof = needsAttention(schedule.cof) ? Math.min(urgency(schedule.cof), schedule.cof.high ? urgency({ ...schedule.cof, state: 'due-soon', daysUntilDue: 0 }) : Infinity) : null;
    if (service === null && cof === null) continue;
    const kind = cof !== null && (service === null || cof < service) ? COF_TYPE : SERVICE_TYPE;
    items.push({ schedule, kind, urgency: Math.min(service ?? Infinity, cof ?? Infinity) });
  }
  return items.sort((a, b) => a.urgency - b.urgency || a.schedule.entry.curveNumber.localeCompare(b.schedule.entry.curveNumber, 'en', { numeric: true }));
}
