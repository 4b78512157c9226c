/** The follow-up actions' reads and writes; the service decides, these only say it in SQL. */
import { and, asc, count, desc, eq, gt, inArray, lt, lte, type SQL, sql } from 'drizzle-orm';
import type { ActionKind } from '../../../common/rules/follow-up-actions.js';
import type { DbOrTx } from '../../db/client.js';
import {
  consolidatedCurveDetails,
  followUpActionEvents,
  followUpActions,
  type FollowUpActionEventRow,
  type FollowUpActionRow,
  inspectionLogs,
  type NewFollowUpActionRow,
} from '../../db/schema.js';
import { recordLineOf } from '../../db/sql-helpers.js';

export interface CurveLine {
  divisionRailway: string;
  section: string;
  curveNumber: string;
  line: string;
}

export type NewEvent = Omit<typeof followUpActionEvents.$inferInsert, 'id'>;

const sameCurveLine = (c: CurveLine) =>
  and(
    eq(followUpActions.divisionRailway, c.divisionRailway),
    eq(followUpActions.section, c.section),
    eq(followUpActions.curveNumber, c.curveNumber),
    eq(followUpActions.line, c.line),
  );

export async function insertEvents(tx: DbOrTx, events: NewEvent[]): Promise<void> {
  if (events.length > 0) await tx.insert(followUpActionEvents).values(events);
}

/** Closes the open actions of these kinds on the curve and line last reported on or before `onOrBefore`. */
export async function closeOpenActions(
  tx: DbOrTx,
  curve: CurveLine,
  kinds: readonly ActionKind[],
  onOrBefore: string,
  closing: { closedOn: string; closedAt: Date; closedByRecordId: string },
): Promise<FollowUpActionRow[]> {
  const open = and(sameCurveLine(curve), eq(followUpActions.state, 'open'), inArray(followUpActions.kind, [...kinds]), lte(followUpActions.lastReportedOn, onOrBefore));
  // Most visits close nothing. An UPDATE of no row still moves the actions' change counter (a
  // statement trigger), which would empty every cached list and count: read first, write only when there is something to close.
  const ids = (await tx.select({ id: followUpActions.id }).from(followUpActions).where(open)).map((row) => row.id);
  if (ids.length === 0) return [];
  return tx
    .update(followUpActions)
    .set({ state: 'closed', closedOn: closing.closedOn, closedAt: closing.closedAt, closedByRecordId: closing.closedByRecordId })
    .where(and(open, inArray(followUpActions.id, ids)))
    .returning();
}

/**
 * The first visit after `date` on the curve and line that proves a fault of this kind fixed: a
 * late-arriving report of a fault already fixed is filed closed by it.
 */
export async function laterFixOf(tx: DbOrTx, curve: CurveLine, kind: ActionKind, date: string, cofAlertThreshold: number) {
  const passes: SQL =
    kind === 'cof-high'
      ? sql`${inspectionLogs.type} = 'CoF' and ${inspectionLogs.cofValue} <= ${cofAlertThreshold}`
      : sql`${inspectionLogs.type} = 'Service' and ${inspectionLogs.serviceUpdate} = 'working-fine' and ${inspectionLogs.isMachineWorking}`;
  const [fix] = await tx
    .select({ recordId: inspectionLogs.recordId, date: inspectionLogs.date })
    .from(inspectionLogs)
    .where(
      and(
        eq(inspectionLogs.section, curve.section),
        eq(inspectionLogs.curveNumber, curve.curveNumber),
        eq(inspectionLogs.line, curve.line),
        eq(inspectionLogs.divisionRailway, curve.divisionRailway),
        gt(inspectionLogs.date, date),
        passes,
      ),
    )
    .orderBy(asc(inspectionLogs.date), asc(inspectionLogs.submittedAt))
    .limit(1);
  return fix ?? null;
}

/**
 * The register's SSE of the action's curve and line (null when the register has no such curve
 * or names none), read by the statement that files the action rather than by one of its own.
 */
function registerSseOf(tx: DbOrTx, curve: CurveLine): SQL {
  const sse = tx
    .select({ sse: consolidatedCurveDetails.sse })
    .from(consolidatedCurveDetails)
    .where(
      and(
        eq(consolidatedCurveDetails.divisionRailway, curve.divisionRailway),
        eq(consolidatedCurveDetails.section, curve.section),
        eq(consolidatedCurveDetails.curveNumber, curve.curveNumber),
        sql`${recordLineOf(sql`${consolidatedCurveDetails.line}`)} = ${curve.line}`,
      ),
    )
    .limit(1);
  return sql`(${sse})`;
}

/** An action a visit files: its SSE is the register's (registerSseOf). */
export type NewVisitAction = Omit<NewFollowUpActionRow, 'sse'>;

/**
 * A report joins the open action of its curve, line and kind, or opens one: one statement, so
 * two reports arriving at once on two instances make one action. A report older than the
 * action's first moves its start (and due date) back: the fault was there since then.
 */
export async function reportFault(tx: DbOrTx, action: NewVisitAction): Promise<{ id: number; opened: boolean }> {
  const [result] = await tx
    .insert(followUpActions)
    .values({ ...action, sse: registerSseOf(tx, action) })
    .onConflictDoUpdate({
      target: [followUpActions.divisionRailway, followUpActions.section, followUpActions.curveNumber, followUpActions.line, followUpActions.kind],
      targetWhere: sql`${followUpActions.state} = 'open'`,
      set: {
        reportCount: sql`${followUpActions.reportCount} + 1`,
        lastReportedOn: sql`greatest(${followUpActions.lastReportedOn}, excluded.last_reported_on)`,
        openedByRecordId: sql`case when excluded.opened_on < ${followUpActions.openedOn} then excluded.opened_by_record_id else ${followUpActions.openedByRecordId} end`,
        dueDate: sql`least(${followUpActions.dueDate}, excluded.due_date)`,
        openedOn: sql`least(${followUpActions.openedOn}, excluded.opened_on)`,
      },
    })
    .returning({ id: followUpActions.id, inserted: sql<boolean>`(xmax = 0)` });
  if (!result) throw new Error('the action insert returned no row');
  // xmax is 0 on a row this statement inserted, set on one it updated.
  return { id: result.id, opened: result.inserted };
}

export async function insertAction(tx: DbOrTx, action: NewVisitAction): Promise<FollowUpActionRow> {
  const [row] = await tx.insert(followUpActions).values({ ...action, sse: registerSseOf(tx, action) }).returning();
  if (!row) throw new Error('the action insert returned no row');
  return row;
}

export async function findAction(tx: DbOrTx, id: number, forUpdate = false): Promise<FollowUpActionRow | null> {
  const query = tx.select().from(followUpActions).where(eq(followUpActions.id, id));
  const [row] = forUpdate ? await query.for('update') : await query;
  return row ?? null;
}

export async function updateAction(tx: DbOrTx, id: number, values: Partial<NewFollowUpActionRow>): Promise<FollowUpActionRow> {
  const [row] = await tx.update(followUpActions).set(values).where(eq(followUpActions.id, id)).returning();
  if (!row) throw new Error(`action ${id} vanished inside its transaction`);
  return row;
}

export async function deleteAction(tx: DbOrTx, id: number): Promise<void> {
  await tx.delete(followUpActions).where(eq(followUpActions.id, id));
}

export async function openActionOf(tx: DbOrTx, curve: CurveLine, kind: string): Promise<FollowUpActionRow | null> {
  const [row] = await tx
    .select()
    .from(followUpActions)
    .where(and(sameCurveLine(curve), eq(followUpActions.kind, kind), eq(followUpActions.state, 'open')))
    .limit(1);
  return row ?? null;
}

/** The actions whose history names any of these records. */
export async function actionIdsNaming(tx: DbOrTx, recordIds: readonly string[]): Promise<number[]> {
  if (recordIds.length === 0) return [];
  const rows = await tx
    .selectDistinct({ actionId: followUpActionEvents.actionId })
    .from(followUpActionEvents)
    .where(inArray(followUpActionEvents.recordId, [...recordIds]));
  return rows.map((r) => r.actionId);
}

export async function eventsOf(tx: DbOrTx, actionIds: readonly number[]): Promise<FollowUpActionEventRow[]> {
  if (actionIds.length === 0) return [];
  return tx
    .select()
    .from(followUpActionEvents)
    .where(inArray(followUpActionEvents.actionId, [...actionIds]))
    .orderBy(asc(followUpActionEvents.actionId), asc(followUpActionEvents.id));
}

/** The records of these IDs that still exist, with their dates. */
export async function existingRecords(tx: DbOrTx, recordIds: readonly string[]): Promise<Map<string, { date: string; submittedAt: Date }>> {
  if (recordIds.length === 0) return new Map();
  const rows = await tx
    .select({ recordId: inspectionLogs.recordId, date: inspectionLogs.date, submittedAt: inspectionLogs.submittedAt })
    .from(inspectionLogs)
    .where(inArray(inspectionLogs.recordId, [...recordIds]));
  return new Map(rows.map((r) => [r.recordId, { date: r.date, submittedAt: r.submittedAt }]));
}

export interface ActionFilter {
  division?: string | undefined;
  section?: string | undefined;
  sse?: string | undefined;
  kind?: ActionKind | undefined;
  state: 'open' | 'closed' | 'all';
  /** Open and past their due date on this business date. */
  overdueOn?: string | undefined;
}

function filterWhere(filter: ActionFilter): SQL | undefined {
  return and(
    filter.division ? eq(followUpActions.divisionRailway, filter.division) : undefined,
    filter.section ? eq(followUpActions.section, filter.section) : undefined,
    filter.sse ? eq(followUpActions.sse, filter.sse) : undefined,
    filter.kind ? eq(followUpActions.kind, filter.kind) : undefined,
    filter.state === 'all' ? undefined : eq(followUpActions.state, filter.state),
    filter.overdueOn ? and(eq(followUpActions.state, 'open'), lt(followUpActions.dueDate, filter.overdueOn)) : undefined,
  );
}

/** A page: open ones most overdue first, then by when they opened, newest first. */
export async function listActions(db: DbOrTx, filter: ActionFilter, page: { limit: number; offset: number }): Promise<FollowUpActionRow[]> {
  return db
    .select()
    .from(followUpActions)
    .where(filterWhere(filter))
    .orderBy(desc(sql`(${followUpActions.state} = 'open')`), asc(followUpActions.dueDate), desc(followUpActions.openedOn), desc(followUpActions.id))
    .limit(page.limit)
    .offset(page.offset);
}

export async function countActions(db: DbOrTx, filter: ActionFilter): Promise<number> {
  const [row] = await db.select({ n: count() }).from(followUpActions).where(filterWhere(filter));
  return row?.n ?? 0;
}

/** Open and overdue actions per division. */
export async function countOpenByDivision(db: DbOrTx, division: string | undefined, today: string) {
  return db
    .select({
      divisionRailway: followUpActions.divisionRailway,
      open: sql<number>`count(*)::int`,
      overdue: sql<number>`(count(*) filter (where ${followUpActions.dueDate} < ${today}))::int`,
    })
    .from(followUpActions)
    .where(and(eq(followUpActions.state, 'open'), division ? eq(followUpActions.divisionRailway, division) : undefined))
    .groupBy(followUpActions.divisionRailway)
    .orderBy(asc(followUpActions.divisionRailway));
}
