/**
 * The open follow-up actions on the phone (GET /api/actions?state=open), kept on the device with
 * the schedule so the due list shows them offline too. A visit still in the outbox that proves a
 * fault fixed (common/rules/follow-up-actions.ts, the server's own rule) takes its action off the
 * list at once, before the record is sent.
 */
import { queryOptions } from '@tanstack/react-query';
import { daysBetween } from '../../../../common/rules/dates.js';
import { kindsClosedBy } from '../../../../common/rules/follow-up-actions.js';
import { type Action, actionListResponseSchema, ACTIONS_PAGE_MAX } from '../../../../common/schemas/actions.js';
import { HOUR_MS, networkThenDevice, OFFLINE_CAPABLE } from '../../lib/offline-query.js';
import type { WaitingVisit } from '../outbox/index.js';
import { curveKey } from './curve-schedule.js';

export function openActionsUrl(division: string | null | undefined): string {
  const scope = division ? `&division=${encodeURIComponent(division)}` : '';
  return `/api/actions?state=open&limit=${ACTIONS_PAGE_MAX}${scope}`;
}

export function openActionsQuery(division: string | null | undefined) {
  return queryOptions({
    queryKey: [openActionsUrl(division)],
    queryFn: networkThenDevice(actionListResponseSchema),
    ...OFFLINE_CAPABLE,
    staleTime: 5 * 60 * 1000,
    gcTime: 2 * HOUR_MS,
  });
}

/** Whether a visit waiting in the outbox proves this action's fault fixed: same curve and line, on or after its newest report. */
function fixedBy(action: Action, visit: WaitingVisit, cofAlertThreshold: number): boolean {
  if (curveKey(visit.section, visit.curveNumber, visit.line) !== curveKey(action.section, action.curveNumber, action.line)) return false;
  if (visit.date < action.lastReportedOn) return false;
  const facts = { ...visit, cofValue: visit.cofValue === null || visit.cofValue === '' ? null : Number(visit.cofValue) };
  return kindsClosedBy(facts, cofAlertThreshold).includes(action.kind);
}

export interface DueAction {
  action: Action;
  /** Days since it was reported, to today. */
  ageDays: number;
  /** Days left to its due date: negative when overdue. */
  daysLeft: number;
}

/** The open actions of these sections not fixed by a visit waiting in the outbox, the most overdue first. */
export function dueActions(
  actions: readonly Action[],
  waiting: readonly WaitingVisit[],
  sections: ReadonlySet<string>,
  today: string,
  cofAlertThreshold: number,
): DueAction[] {
  return actions
    .filter((action) => action.state === 'open' && sections.has(action.section))
    .filter((action) => !waiting.some((visit) => fixedBy(action, visit, cofAlertThreshold)))
    .map((action) => ({ action, ageDays: daysBetween(action.openedOn, today), daysLeft: daysBetween(today, action.dueDate) }))
    .sort((a, b) => a.daysLeft - b.daysLeft || b.ageDays - a.ageDays);
}
