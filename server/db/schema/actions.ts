/**
 * Follow-up actions (common/rules/follow-up-actions.ts): a fault a visit reported, tracked until
 * a later visit proves it fixed, and each action's history. The records are linked by their
 * record ID as text, not a foreign key: a deleted record leaves its line in the history (the
 * actions feature says what the deletion did to the action).
 */
import { sql } from 'drizzle-orm';
import { check, date, index, integer, pgTable, serial, text, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';

export const followUpActions = pgTable(
  'follow_up_actions',
  {
    id: serial('id').primaryKey(),
    kind: varchar('kind', { length: 30 }).notNull(),
    state: varchar('state', { length: 10 }).notNull().default('open'),
    severity: varchar('severity', { length: 10 }).notNull(),
    divisionRailway: varchar('division_railway', { length: 50 }).notNull(),
    section: varchar('section', { length: 100 }).notNull(),
    curveNumber: varchar('curve_number', { length: 50 }).notNull(),
    /** As the records spell it: Up, Down or Single. */
    line: varchar('line', { length: 10 }).notNull(),
    /** The SSE in charge of the curve when the action opened (the register's), if it names one. */
    sse: varchar('sse', { length: 150 }),
    /** What the first report said: "Pump – Motor", "CoF 0.32". */
    reported: text('reported').notNull(),
    /** Reports of the fault while the action is open, the first included. */
    reportCount: integer('report_count').notNull().default(1),
    /** The opening visit's date: age and due date count from it. */
    openedOn: date('opened_on', { mode: 'string' }).notNull(),
    dueDate: date('due_date', { mode: 'string' }).notNull(),
    /** The newest report's date: only a visit on or after it proves the fault fixed. */
    lastReportedOn: date('last_reported_on', { mode: 'string' }).notNull(),
    openedByRecordId: varchar('opened_by_record_id', { length: 64 }),
    openedAt: timestamp('opened_at', { withTimezone: true }).notNull().defaultNow(),
    closedOn: date('closed_on', { mode: 'string' }),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    /** The visit that proved the fix; null when an Admin closed it (then closedByEmployeeId and closeNote say who and why). */
    closedByRecordId: varchar('closed_by_record_id', { length: 64 }),
    closedByEmployeeId: varchar('closed_by_employee_id', { length: 50 }),
    closeNote: text('close_note'),
  },
  (t) => [
    check('follow_up_actions_kind_ck', sql`${t.kind} in ('machine-not-working', 'part-stolen', 'part-broken', 'cof-high')`),
    check('follow_up_actions_state_ck', sql`${t.state} in ('open', 'closed')`),
    check('follow_up_actions_line_ck', sql`${t.line} in ('Up', 'Down', 'Single')`),
    // One action per curve, line and kind stays open; a repeat report joins it.
    uniqueIndex('follow_up_actions_one_open_idx')
      .on(t.divisionRailway, t.section, t.curveNumber, t.line, t.kind)
      .where(sql`${t.state} = 'open'`),
    index('follow_up_actions_curve_idx').on(t.section, t.curveNumber, t.line, t.kind, t.openedOn.desc()),
    index('follow_up_actions_state_division_idx').on(t.state, t.divisionRailway, t.openedOn.desc()),
  ],
);

export type FollowUpActionRow = typeof followUpActions.$inferSelect;
export type NewFollowUpActionRow = typeof followUpActions.$inferInsert;

export const followUpActionEvents = pgTable(
  'follow_up_action_events',
  {
    id: serial('id').primaryKey(),
    actionId: integer('action_id')
      .notNull()
      .references(() => followUpActions.id, { onDelete: 'cascade' }),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    /** opened, reported-again, closed, reopened, record-deleted */
    event: varchar('event', { length: 20 }).notNull(),
    recordId: varchar('record_id', { length: 64 }),
    /** The visit's date, for a record's event. */
    recordDate: date('record_date', { mode: 'string' }),
    /** Who: the technician of the visit, or the Admin who closed or reopened. */
    actorEmployeeId: varchar('actor_employee_id', { length: 50 }),
    actorName: varchar('actor_name', { length: 100 }),
    note: text('note'),
  },
  (t) => [
    check('follow_up_action_events_event_ck', sql`${t.event} in ('opened', 'reported-again', 'closed', 'reopened', 'record-deleted')`),
    index('follow_up_action_events_action_idx').on(t.actionId, t.id),
    index('follow_up_action_events_record_idx').on(t.recordId),
  ],
);

export type FollowUpActionEventRow = typeof followUpActionEvents.$inferSelect;
