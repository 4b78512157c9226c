/**
 * The maintenance schedule's contracts (issue 11): the due list (GET /api/schedule), its
 * counts per section (GET /api/schedule/summary) and the Excel maintenance report
 * (POST /api/reports/curve-maintenance). The rule itself is common/rules/schedule.ts.
 */
import { z } from 'zod';
import { CURVE_LIST_LIMIT, DIVISIONS, INSPECTION_TYPES } from '../constants.js';
import { DUE_STATES, SCHEDULE_STATUS_FILTERS } from '../rules/schedule.js';

/** A phone takes the schedule of its whole curve list in one answer. */
export const SCHEDULE_PAGE_MAX = CURVE_LIST_LIMIT;

/** An optional name filter; 'all' and an empty value mean none. Shared by the list queries. */
export const optionalName = (label: string, max: number) =>
  z
    .string({ error: `${label} must be text` })
    .trim()
    .max(max, `${label} must be at most ${max} characters`)
    .optional()
    // 'all' and an empty value both mean no filter, as in the views' selects.
    .transform((v) => (v === undefined || v === '' || v.toLowerCase() === 'all' ? undefined : v));

export const scheduleQuerySchema = z.object({
  division: optionalName('division', 50),
  section: optionalName('section', 100),
  /** One state, 'attention' (never done, overdue, due soon or CoF high) or 'cof-high'. */
  status: z.enum(SCHEDULE_STATUS_FILTERS, { error: `status must be one of ${SCHEDULE_STATUS_FILTERS.join(', ')}` }).optional(),
  /** Which visit the status and the order look at; without it, whichever is more urgent. */
  kind: z.enum(INSPECTION_TYPES, { error: `kind must be one of ${INSPECTION_TYPES.join(', ')}` }).optional(),
  limit: z.coerce
    .number({ error: 'limit must be a number' })
    .int('limit must be a whole number')
    .min(1, 'limit must be at least 1')
    .max(SCHEDULE_PAGE_MAX, `limit must be at most ${SCHEDULE_PAGE_MAX}`)
    .default(50),
  offset: z.coerce.number({ error: 'offset must be a number' }).int('offset must be a whole number').min(0, 'offset must be 0 or more').default(0),
});
export type ScheduleQuery = z.infer<typeof scheduleQuerySchema>;

const dueStateSchema = z.enum(DUE_STATES);
const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

/** One kind's schedule of a curve: the rule's answer plus what it was worked out from. */
const kindScheduleSchema = z.object({
  state: dueStateSchema,
  lastDate: isoDate.nullable(),
  lastTechnician: z.string().nullable(),
  dueDate: isoDate.nullable(),
  daysSince: z.number().int().nullable(),
  daysOverdue: z.number().int(),
  daysUntilDue: z.number().int().nullable(),
});

export const scheduleEntrySchema = z.object({
  divisionRailway: z.string(),
  section: z.string(),
  curveNumber: z.string(),
  line: z.string(),
  hkmCode: z.number().int().nullable(),
  sse: z.string().nullable(),
  /**
   * The curve's rollout record says its machine is installed or commissioned. With the last
   * Service visit it says whether the curve has a machine (common/rules/schedule.ts, hasMachine),
   * which the phone works out again with the visits still in its outbox.
   */
  rolloutMachine: z.boolean(),
  service: kindScheduleSchema.extend({ serviceUpdate: z.string().nullable() }),
  cof: kindScheduleSchema.extend({ lastValue: z.number().nullable(), high: z.boolean() }),
});
export type ScheduleEntry = z.infer<typeof scheduleEntrySchema>;

export const scheduleResponseSchema = z.object({
  /** The business date (APP_TIMEZONE) the states were worked out for. */
  asOf: isoDate,
  timeZone: z.string(),
  cofAlertThreshold: z.number(),
  total: z.number().int(),
  curves: z.array(scheduleEntrySchema),
  /** A technician's own sections of the last 30 days, most recent first; empty for others. */
  recentSections: z.array(z.string()),
});
export type ScheduleResponse = z.infer<typeof scheduleResponseSchema>;

const stateCountsSchema = z.object({
  overdue: z.number().int(),
  dueSoon: z.number().int(),
  never: z.number().int(),
  inTime: z.number().int(),
  /** Curves on the kind's due list: never, overdue or due soon (CoF: or a high reading). */
  attention: z.number().int(),
  /** Curves without a machine: "No machine", on neither schedule. */
  noMachine: z.number().int(),
});

export const scheduleSectionSummarySchema = z.object({
  divisionRailway: z.string(),
  section: z.string(),
  curves: z.number().int(),
  service: stateCountsSchema.extend({ notNeeded: z.number().int() }),
  cof: stateCountsSchema.extend({ high: z.number().int() }),
});
export type ScheduleSectionSummary = z.infer<typeof scheduleSectionSummarySchema>;

export const scheduleSummaryQuerySchema = scheduleQuerySchema.pick({ division: true, section: true });
export type ScheduleSummaryQuery = z.infer<typeof scheduleSummaryQuerySchema>;

export const scheduleSummaryResponseSchema = z.object({
  asOf: isoDate,
  cofAlertThreshold: z.number(),
  sections: z.array(scheduleSectionSummarySchema),
});
export type ScheduleSummaryResponse = z.infer<typeof scheduleSummaryResponseSchema>;

/** POST /api/reports/curve-maintenance {division, section}: 'all' or a name for each. */
export const maintenanceReportRequestSchema = z.object({
  division: z
    .string({ error: 'division is required' })
    .trim()
    .refine((v) => v === 'all' || (DIVISIONS as readonly string[]).includes(v), { error: `division must be all or one of ${DIVISIONS.join(', ')}` }),
  section: z
    .string({ error: 'section is required' })
    .trim()
    .min(1, 'section is required')
    .max(100, 'section must be at most 100 characters'),
});
export type MaintenanceReportRequest = z.infer<typeof maintenanceReportRequestSchema>;

export const maintenanceReportResponseSchema = z.object({
  serviceCount: z.number().int(),
  cofCount: z.number().int(),
  reportId: z.string(),
});
export type MaintenanceReportResponse = z.infer<typeof maintenanceReportResponseSchema>;
