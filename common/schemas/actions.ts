/**
 * Follow-up actions' contracts: the list (GET /api/actions), the counts per division
 * (GET /api/actions/counts), an Admin's close and reopen (POST /api/actions/{id}/close|reopen).
 * The rule is common/rules/follow-up-actions.ts.
 */
import { z } from 'zod';
import { INT4_MAX } from '../constants.js';
import { optionalName } from './schedule.js';
import { ACTION_KINDS, ACTION_SEVERITIES, ACTION_STATES, AGEING_BANDS } from '../rules/follow-up-actions.js';

export const ACTIONS_PAGE_MAX = 500;

export const actionListQuerySchema = z.object({
  division: optionalName('division', 50),
  section: optionalName('section', 100),
  sse: optionalName('sse', 150),
  kind: z.enum(ACTION_KINDS, { error: `kind must be one of ${ACTION_KINDS.join(', ')}` }).optional(),
  state: z.enum([...ACTION_STATES, 'all'], { error: `state must be one of ${[...ACTION_STATES, 'all'].join(', ')}` }).default('open'),
  /** Only open actions past their due date. */
  overdue: z
    .enum(['true', 'false'], { error: 'overdue must be true or false' })
    .optional()
    .transform((v) => v === 'true'),
  limit: z.coerce
    .number({ error: 'limit must be a number' })
    .int('limit must be a whole number')
    .min(1, 'limit must be at least 1')
    .max(ACTIONS_PAGE_MAX, `limit must be at most ${ACTIONS_PAGE_MAX}`)
    .default(50),
  offset: z.coerce.number({ error: 'offset must be a number' }).int('offset must be a whole number').min(0, 'offset must be 0 or more').default(0),
});
export type ActionListQuery = z.infer<typeof actionListQuerySchema>;

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

export const actionEventSchema = z.object({
  event: z.enum(['opened', 'reported-again', 'closed', 'reopened', 'record-deleted']),
  /** ISO 8601 timestamp of the change. */
  at: z.string(),
  recordId: z.string().nullable(),
  recordDate: isoDate.nullable(),
  actorEmployeeId: z.string().nullable(),
  actorName: z.string().nullable(),
  note: z.string().nullable(),
});
export type ActionEvent = z.infer<typeof actionEventSchema>;

export const actionSchema = z.object({
  id: z.number().int(),
  kind: z.enum(ACTION_KINDS),
  state: z.enum(ACTION_STATES),
  severity: z.enum(ACTION_SEVERITIES),
  divisionRailway: z.string(),
  section: z.string(),
  curveNumber: z.string(),
  line: z.string(),
  sse: z.string().nullable(),
  reported: z.string(),
  reportCount: z.number().int(),
  openedAt: z.string(),
  openedOn: isoDate,
  dueDate: isoDate,
  /** The newest report's date: a visit on or after it may prove the fault fixed. */
  lastReportedOn: isoDate,
  /** Open: days since it opened (today - opened on); closed: days it took. */
  ageDays: z.number().int(),
  ageing: z.enum(AGEING_BANDS),
  overdue: z.boolean(),
  openedByRecordId: z.string().nullable(),
  closedOn: isoDate.nullable(),
  closedAt: z.string().nullable(),
  closedByRecordId: z.string().nullable(),
  closedByEmployeeId: z.string().nullable(),
  closeNote: z.string().nullable(),
  history: z.array(actionEventSchema),
});
export type Action = z.infer<typeof actionSchema>;

export const actionListResponseSchema = z.object({
  /** Today's business date the ages and overdue flags are counted to. */
  asOf: isoDate,
  total: z.number().int(),
  actions: z.array(actionSchema),
});
export type ActionListResponse = z.infer<typeof actionListResponseSchema>;

export const actionCountsQuerySchema = actionListQuerySchema.pick({ division: true });

export const actionCountsResponseSchema = z.object({
  asOf: isoDate,
  divisions: z.array(z.object({ divisionRailway: z.string(), open: z.number().int(), overdue: z.number().int() })),
});
export type ActionCountsResponse = z.infer<typeof actionCountsResponseSchema>;

export const actionNoteBodySchema = z.object({
  note: z
    .string({ error: 'note is required' })
    .trim()
    .min(1, 'note is required: say why')
    .max(1000, 'note must be at most 1000 characters'),
});
export type ActionNoteBody = z.infer<typeof actionNoteBodySchema>;

export const actionIdParamsSchema = z.object({
  id: z.coerce.number({ error: 'id must be a number' }).int('id must be a whole number').min(1, 'id must be at least 1').max(INT4_MAX, 'id is too large'),
});

/** POST /api/reports/follow-up-actions: the actions in view as an Excel file, a report job like the others. */
export const actionReportRequestSchema = actionListQuerySchema.omit({ limit: true, offset: true });
export type ActionReportRequest = z.infer<typeof actionReportRequestSchema>;
