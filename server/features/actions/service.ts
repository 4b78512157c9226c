/**
 * Follow-up actions (common/rules/follow-up-actions.ts) kept by the server: a stored visit opens,
 * joins or closes them inside the transaction that stores it (so an outbox replay, which stores
 * nothing, changes nothing); a deleted record's actions are put right inside the deletion's
 * transaction; Admins close and reopen with a note, audited. Lists and counts are cached until an
 * instance writes an action (change_counters) or the business date moves on.
 */
import { addDays, dateInTimeZone, daysBetween } from '../../../common/rules/dates.js';
import { divisionScope } from '../../../common/rules/division-scope.js';
import {
  type ActionDueDays,
  type ActionKind,
  ageingBandOf,
  DEFAULT_ACTION_POLICY,
  faultsReportedBy,
  kindsClosedBy,
  type VisitFacts,
} from '../../../common/rules/follow-up-actions.js';
import {
  type Action,
  type ActionCountsResponse,
  type ActionListQuery,
  type ActionListResponse,
  actionListResponseSchema,
  actionSchema,
} from '../../../common/schemas/actions.js';
import type { PublicUser } from '../../../common/schemas/auth.js';
import { AppError } from '../../app-error.js';
import { type Actor, auditOf, recordAudit, recordAudits, type AuditRecord } from '../../audit/index.js';
import type { Db, DbOrTx } from '../../db/client.js';
import type { FollowUpActionEventRow, FollowUpActionRow, InspectionRow } from '../../db/schema.js';
import { readTableVersions, VersionedCache } from '../../db/versioned-cache.js';
import { JsonBody } from '../../json-body.js';
import {
  actionIdsNaming,
  closeOpenActions,
  countActions,
  countOpenByDivision,
  type CurveLine,
  deleteAction,
  eventsOf,
  existingRecords,
  findAction,
  insertAction,
  insertEvents,
  laterFixOf,
  listActions,
  type NewEvent,
  openActionOf,
  reportFault,
  updateAction,
} from './repository.js';

export interface ActionDeps {
  db: Db;
  appTimeZone: string;
  cofAlertThreshold: number;
  dueDays: ActionDueDays;
  now: () => Date;
}

/** What the rule reads of a stored record. */
export function visitFactsOf(row: Pick<InspectionRow, 'type' | 'serviceUpdate' | 'partCategory' | 'partItemName' | 'isMachineWorking' | 'cofValue'>): VisitFacts {
  return {
    type: row.type === 'CoF' ? 'CoF' : 'Service',
    serviceUpdate: row.serviceUpdate,
    partCategory: row.partCategory,
    partItemName: row.partItemName,
    isMachineWorking: row.isMachineWorking,
    cofValue: row.cofValue === null ? null : Number(row.cofValue),
  };
}

const REPORT_EVENTS = new Set(['opened', 'reported-again']);

/** More actions than a zone keeps open in years; a report stops there rather than fill the memory. */
const REPORT_ROWS_MAX = 100_000;

/** What a report lists: the list's filters without paging, the division resolved for the requester. */
export interface ActionScope {
  division?: string | undefined;
  section?: string | undefined;
  sse?: string | undefined;
  kind?: ActionKind | undefined;
  state: 'open' | 'closed' | 'all';
  overdue?: boolean | undefined;
}

export function createActionService(deps: ActionDeps) {
  const { db } = deps;
  const today = () => dateInTimeZone(deps.now(), deps.appTimeZone);
  // Kept as the bytes sent (and their gzip form): a page of 50 actions is ~45 KB of JSON.
  const pages = new VersionedCache<JsonBody>({ maxEntries: 500, maxWeight: 32 * 1024 * 1024, weigh: (page) => page.json.length });
  const counts = new VersionedCache<JsonBody>({ maxEntries: 100 });

  const curveOf = (row: InspectionRow): CurveLine => ({
    divisionRailway: row.divisionRailway,
    section: row.section,
    curveNumber: row.curveNumber,
    line: row.line,
  });
  // A visit's events are dated when the record was stored (the demo's, when its visit was uploaded).
  const visitEvent = (row: InspectionRow, event: NewEvent['event'], actionId: number, note: string | null = null): NewEvent => ({
    actionId,
    at: row.submittedAt,
    event,
    recordId: row.recordId,
    recordDate: row.date,
    actorEmployeeId: row.technicianId,
    actorName: row.technicianName,
    note,
  });

  /**
   * A newly stored visit, inside its transaction: it closes what it proves fixed, then files
   * each fault it reports, joining the open action or opening one; a fault a later visit has
   * already fixed (a late upload from an outbox) is filed closed by that visit.
   */
  async function visitStored(tx: DbOrTx, row: InspectionRow): Promise<void> {
    const facts = visitFactsOf(row);
    const curve = curveOf(row);
    const events: NewEvent[] = [];
    const closes = kindsClosedBy(facts, deps.cofAlertThreshold);
    if (closes.length > 0) {
      const closed = await closeOpenActions(tx, curve, closes, row.date, { closedOn: row.date, closedAt: row.submittedAt, closedByRecordId: row.recordId });
      for (const action of closed) events.push(visitEvent(row, 'closed', action.id));
    }
    const faults = faultsReportedBy(facts, deps.cofAlertThreshold);
    for (const fault of faults) {
      const opening = {
        ...curve,
        kind: fault.kind,
        severity: DEFAULT_ACTION_POLICY[fault.kind].severity,
        reported: fault.reported,
        openedOn: row.date,
        lastReportedOn: row.date,
        dueDate: addDays(row.date, deps.dueDays[fault.kind]),
        openedByRecordId: row.recordId,
        openedAt: row.submittedAt,
      };
      const fix = await laterFixOf(tx, curve, fault.kind, row.date, deps.cofAlertThreshold);
      if (fix) {
        const action = await insertAction(tx, { ...opening, state: 'closed', closedOn: fix.date, closedAt: row.submittedAt, closedByRecordId: fix.recordId });
        events.push(visitEvent(row, 'opened', action.id), {
          ...visitEvent(row, 'closed', action.id, `Already fixed by the later visit ${fix.recordId}`),
          recordId: fix.recordId,
          recordDate: fix.date,
          actorEmployeeId: null,
          actorName: null,
        });
        continue;
      }
      const { id, opened } = await reportFault(tx, opening);
      events.push(visitEvent(row, opened ? 'opened' : 'reported-again', id, opened ? null : fault.reported));
    }
    await insertEvents(tx, events);
  }

  /**
   * Records deleted (inside the deletion's transaction): each action whose history names one is
   * put right from the records that remain. A deleted report leaves the count; when no report is
   * left the action is withdrawn (removed, audited), and when the opening one went, the earliest
   * remaining report opens it. A deleted closing visit reopens the action, unless another action
   * of its kind is open on the curve by now; then it stays closed with the deletion noted. The
   * history keeps every line with the record ID, and says which record was deleted.
   */
  async function recordsDeleted(tx: DbOrTx, deleted: readonly InspectionRow[], actor: Actor): Promise<void> {
    const deletedIds = new Set(deleted.map((r) => r.recordId));
    const actionIds = await actionIdsNaming(tx, [...deletedIds]);
    if (actionIds.length === 0) return;
    const allEvents = await eventsOf(tx, actionIds);
    const remaining = await existingRecords(tx, [...new Set(allEvents.map((e) => e.recordId).filter((id): id is string => id !== null))]);
    const audits: AuditRecord[] = [];
    const events: NewEvent[] = [];
    const byAction = eventsByAction(allEvents);
    for (const actionId of actionIds) {
      const action = await findAction(tx, actionId, true);
      if (!action) continue;
      const history = byAction.get(actionId) ?? [];
      const note = (recordId: string) => `Record ${recordId} was deleted by ${actor.user.employeeId}`;
      const deletedHere = [...new Set(history.filter((e) => e.recordId !== null && deletedIds.has(e.recordId)).map((e) => e.recordId as string))];
      const reports = history.filter((e) => REPORT_EVENTS.has(e.event) && e.recordId !== null && remaining.has(e.recordId));
      const uniqueReports = [...new Map(reports.map((e) => [e.recordId, e])).values()];
      if (uniqueReports.length === 0) {
        await deleteAction(tx, actionId);
        audits.push(
          auditOf(actor, { action: 'action.withdraw', entity: 'follow-up-action', entityId: String(actionId), before: auditStateOf(action), after: null }),
        );
        continue;
      }
      const earliest = uniqueReports.reduce((a, b) => ((a.recordDate ?? '') <= (b.recordDate ?? '') ? a : b));
      const latest = uniqueReports.reduce((a, b) => ((a.recordDate ?? '') >= (b.recordDate ?? '') ? a : b));
      const openedOn = earliest.recordDate ?? action.openedOn;
      const changes: Parameters<typeof updateAction>[2] = {
        reportCount: uniqueReports.length,
        openedByRecordId: earliest.recordId,
        openedOn,
        lastReportedOn: latest.recordDate ?? action.lastReportedOn,
        dueDate: addDays(openedOn, deps.dueDays[action.kind as ActionKind]),
      };
      if (action.closedByRecordId !== null && deletedIds.has(action.closedByRecordId)) {
        const other = await openActionOf(tx, action, action.kind);
        if (other) {
          Object.assign(changes, { closedByRecordId: null, closeNote: `${note(action.closedByRecordId)}; action ${other.id} is open for this fault` });
        } else {
          Object.assign(changes, { state: 'open', closedOn: null, closedAt: null, closedByRecordId: null, closedByEmployeeId: null, closeNote: null });
          events.push({ actionId, event: 'reopened', recordId: action.closedByRecordId, recordDate: null, actorEmployeeId: actor.user.employeeId, actorName: actor.user.name, note: `The visit that closed it (${action.closedByRecordId}) was deleted` });
        }
      }
      await updateAction(tx, actionId, changes);
      for (const recordId of deletedHere) {
        events.push({ actionId, event: 'record-deleted', recordId, recordDate: null, actorEmployeeId: actor.user.employeeId, actorName: actor.user.name, note: note(recordId) });
      }
    }
    await insertEvents(tx, events);
    await recordAudits(tx, audits);
  }

  /** An Admin closes an open action, or reopens a closed one, with a note saying why. */
  async function changeState(actor: Actor, id: number, to: 'open' | 'closed', note: string): Promise<Action> {
    const day = today();
    await db.transaction(async (tx) => {
      const action = await findAction(tx, id, true);
      if (!action) throw new AppError('NOT_FOUND', `Action ${id} not found`);
      if (action.state === to) throw new AppError('CONFLICT', `Action ${id} is already ${to}`);
      if (to === 'open') {
        const other = await openActionOf(tx, action, action.kind);
        if (other) throw new AppError('CONFLICT', `Action ${other.id} is already open for this curve, line and fault; add to it instead`);
      }
      const values =
        to === 'closed'
          ? { state: 'closed', closedOn: day, closedAt: new Date(), closedByRecordId: null, closedByEmployeeId: actor.user.employeeId, closeNote: note }
          : // Reopened: the fix did not hold, so it is due again from today.
            { state: 'open', closedOn: null, closedAt: null, closedByRecordId: null, closedByEmployeeId: null, closeNote: null, dueDate: addDays(day, deps.dueDays[action.kind as ActionKind]) };
      const after = await updateAction(tx, id, values);
      await insertEvents(tx, [
        { actionId: id, event: to === 'closed' ? 'closed' : 'reopened', recordId: null, recordDate: null, actorEmployeeId: actor.user.employeeId, actorName: actor.user.name, note },
      ]);
      await recordAudit(
        tx,
        auditOf(actor, {
          action: to === 'closed' ? 'action.close' : 'action.reopen',
          entity: 'follow-up-action',
          entityId: String(id),
          before: auditStateOf(action),
          after: { ...auditStateOf(after), note },
        }),
      );
    });
    const row = await findAction(db, id);
    if (!row) throw new AppError('NOT_FOUND', `Action ${id} not found`);
    return presentAll([row], await eventsOf(db, [id]), day)[0] as Action;
  }

  async function version(): Promise<number> {
    return (await readTableVersions(db, ['follow_up_actions'])).get('follow_up_actions') ?? 0;
  }

  /** The list a user may read: Clients their division whatever they ask for; Technicians and Admins all (the routes say who). */
  async function list(user: PublicUser, query: ActionListQuery): Promise<JsonBody> {
    const day = today();
    const scope = divisionScope(user, query.division);
    if (scope.none) return JsonBody.of({ asOf: day, total: 0, actions: [] } satisfies ActionListResponse);
    const filter = {
      division: scope.division,
      section: query.section,
      sse: query.sse,
      kind: query.kind,
      state: query.state,
      overdueOn: query.overdue ? day : undefined,
    };
    const key = JSON.stringify([filter, query.limit, query.offset, day]);
    return pages.get(key, await version(), async () => {
      const [rows, total] = await Promise.all([listActions(db, filter, query), countActions(db, filter)]);
      const events = await eventsOf(
        db,
        rows.map((r) => r.id),
      );
      return JsonBody.of(actionListResponseSchema.parse({ asOf: day, total, actions: presentAll(rows, events, day) }));
    });
  }

  async function countsByDivision(user: PublicUser, division: string | undefined): Promise<JsonBody> {
    const day = today();
    const scope = divisionScope(user, division);
    if (scope.none) return JsonBody.of({ asOf: day, divisions: [] } satisfies ActionCountsResponse);
    return counts.get(JSON.stringify([scope.division, day]), await version(), async () =>
      JsonBody.of({ asOf: day, divisions: await countOpenByDivision(db, scope.division, day) } satisfies ActionCountsResponse),
    );
  }

  /**
   * Every action of a report's scope (the division already resolved for the requester), as of
   * `day`, in the list's order; no history. Reports read them once per job, so no cache.
   */
  async function inScope(scope: ActionScope, day: string): Promise<Action[]> {
    const rows = await listActions(db, { ...scope, overdueOn: scope.overdue ? day : undefined }, { limit: REPORT_ROWS_MAX, offset: 0 });
    return presentAll(rows, [], day);
  }

  return {
    visitStored,
    recordsDeleted,
    list,
    countsByDivision,
    inScope,
    count: (scope: ActionScope, day: string) => countActions(db, { ...scope, overdueOn: scope.overdue ? day : undefined }),
    close: (actor: Actor, id: number, note: string) => changeState(actor, id, 'closed', note),
    reopen: (actor: Actor, id: number, note: string) => changeState(actor, id, 'open', note),
  };
}

export type ActionService = ReturnType<typeof createActionService>;

function auditStateOf(row: FollowUpActionRow) {
  return {
    kind: row.kind,
    state: row.state,
    divisionRailway: row.divisionRailway,
    section: row.section,
    curveNumber: row.curveNumber,
    line: row.line,
    openedOn: row.openedOn,
    dueDate: row.dueDate,
    openedByRecordId: row.openedByRecordId,
    closedByRecordId: row.closedByRecordId,
    reportCount: row.reportCount,
  };
}

function presentAll(rows: readonly FollowUpActionRow[], events: readonly FollowUpActionEventRow[], day: string): Action[] {
  const byAction = eventsByAction(events);
  return rows.map((row) => {
    const ageDays = daysBetween(row.openedOn, row.closedOn ?? day);
    return actionSchema.parse({
      id: row.id,
      kind: row.kind,
      state: row.state,
      severity: row.severity,
      divisionRailway: row.divisionRailway,
      section: row.section,
      curveNumber: row.curveNumber,
      line: row.line,
      sse: row.sse,
      reported: row.reported,
      reportCount: row.reportCount,
      openedAt: row.openedAt.toISOString(),
      openedOn: row.openedOn,
      dueDate: row.dueDate,
      lastReportedOn: row.lastReportedOn,
      ageDays,
      ageing: ageingBandOf(ageDays),
      overdue: row.state === 'open' && row.dueDate < day,
      openedByRecordId: row.openedByRecordId,
      closedOn: row.closedOn,
      closedAt: row.closedAt?.toISOString() ?? null,
      closedByRecordId: row.closedByRecordId,
      closedByEmployeeId: row.closedByEmployeeId,
      closeNote: row.closeNote,
      history: (byAction.get(row.id) ?? []).map((e) => ({
        event: e.event,
        at: e.at.toISOString(),
        recordId: e.recordId,
        recordDate: e.recordDate,
        actorEmployeeId: e.actorEmployeeId,
        actorName: e.actorName,
        note: e.note,
      })),
    });
  });
}

function eventsByAction(events: readonly FollowUpActionEventRow[]): Map<number, FollowUpActionEventRow[]> {
  const byAction = new Map<number, FollowUpActionEventRow[]>();
  for (const event of events) byAction.set(event.actionId, [...(byAction.get(event.actionId) ?? []), event]);
  return byAction;
}
