/**
 * Machine rollout contracts (issue 13): the machine dashboard's
 * filters and totals worked out from the per-curve rollout records (curve_records), the owner's
 * edited per-division figures (machine_dashboard_summary), the reports landing's progress
 * cards, and the machine report. The rules are common/rules/rollout.ts.
 */
import { z } from 'zod';
import { type Division, DIVISIONS } from '../constants.js';
import { ROLLOUT_FIELDS, ROLLOUT_FIGURE_MAX, rolloutFiguresProblem } from '../rules/rollout.js';

/** A DEN or AEN filter; empty or 'all' is no filter, as in the view's selects. */
const jurisdictionFilter = (label: string, max: number) =>
  z
    .string({ error: `${label} must be text` })
    .trim()
    .max(max, `${label} must be at most ${max} characters`)
    .optional()
    .transform((v) => (v === undefined || v === '' || v.toLowerCase() === 'all' ? undefined : v));

export const machineStatsQuerySchema = z.object({
  den: jurisdictionFilter('den', 100),
  aen: jurisdictionFilter('aen', 150),
});
export type MachineStatsQuery = z.infer<typeof machineStatsQuerySchema>;

/** GET /api/machine-filters?den=: the AEN list narrows to the chosen DEN. */
export const machineFiltersQuerySchema = machineStatsQuerySchema.pick({ den: true });
export type MachineFiltersQuery = z.infer<typeof machineFiltersQuerySchema>;

export const machineFiltersResponseSchema = z.object({
  dens: z.array(z.string()),
  aens: z.array(z.string()),
});
export type MachineFiltersResponse = z.infer<typeof machineFiltersResponseSchema>;

const count = z.number().int().min(0);
const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

/** The spec's totals; `scope` is the curve count, read by the spec's view under that name. */
export const machineTotalsSchema = z.object({
  scope: count,
  curveCount: count,
  foundationCompleted: count,
  machinesInstalled: count,
  machinesCommissioned: count,
});
export type MachineTotals = z.infer<typeof machineTotalsSchema>;

/** The latest day a curve of the group reached each stage (entries ticked 'Done' without a date are not counted). */
export const lastProgressSchema = z.object({
  foundation: isoDate.nullable(),
  installed: isoDate.nullable(),
  commissioned: isoDate.nullable(),
});
export type LastProgress = z.infer<typeof lastProgressSchema>;

export const machineBreakdownRowSchema = z.object({
  /** The DEN or the AEN; null where the records name none. */
  name: z.string().nullable(),
  den: z.string().nullable(),
  totals: machineTotalsSchema,
  lastProgress: lastProgressSchema,
});
export type MachineBreakdownRow = z.infer<typeof machineBreakdownRowSchema>;

export const machineStatsResponseSchema = z.object({
  totals: machineTotalsSchema,
  lastProgress: lastProgressSchema,
  /** Without a DEN, one row per DEN; with one, one row per AEN under it. */
  breakdown: z.object({
    level: z.enum(['DEN', 'AEN']),
    rows: z.array(machineBreakdownRowSchema),
  }),
});
export type MachineStatsResponse = z.infer<typeof machineStatsResponseSchema>;

const figure = (label: string) =>
  z
    .number({ error: `${label} must be a number` })
    .int(`${label} must be a whole number`)
    .min(0, `${label} cannot be negative`)
    .max(ROLLOUT_FIGURE_MAX, `${label} must be at most ${ROLLOUT_FIGURE_MAX}`);

export const divisionSchema = z.enum(DIVISIONS, { error: `division must be one of ${DIVISIONS.join(', ')}` });

/** PUT /api/machine-dashboard-summary: the four figures of one division, in an order that can be. */
export const machineSummaryUpdateSchema = z
  .object({
    division: divisionSchema,
    scope: figure('scope'),
    foundationCompleted: figure('foundationCompleted'),
    machinesInstalled: figure('machinesInstalled'),
    machinesCommissioned: figure('machinesCommissioned'),
  })
  .superRefine((value, ctx) => {
    const problem = rolloutFiguresProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', path: [problem.field], message: problem.message });
  });
export type MachineSummaryUpdate = z.infer<typeof machineSummaryUpdateSchema>;

export const machineSummarySchema = z.object({
  division: z.string(),
  scope: count,
  foundationCompleted: count,
  machinesInstalled: count,
  machinesCommissioned: count,
  /** When the owner last changed them; null for a division never entered (all zero). */
  updatedAt: z.string().nullable(),
});
export type MachineSummary = z.infer<typeof machineSummarySchema>;

/** The division the machine dashboard's figures open on, as in the original app. */
export const MACHINE_SUMMARY_DEFAULT_DIVISION: Division = 'RTM/WR';

export const machineSummaryQuerySchema = z.object({ division: divisionSchema.default(MACHINE_SUMMARY_DEFAULT_DIVISION) });

export const machineSummariesResponseSchema = z.object({ summaries: z.array(machineSummarySchema) });
export type MachineSummariesResponse = z.infer<typeof machineSummariesResponseSchema>;

/** GET /api/machine-progress?division=: the reports landing's cards; 'all' is every division's sum. */
export const machineProgressQuerySchema = z.object({
  division: z.union([z.literal('all'), divisionSchema], { error: `division must be all or one of ${DIVISIONS.join(', ')}` }).default('all'),
});
export type MachineProgressQuery = z.infer<typeof machineProgressQuerySchema>;

const figuresSchema = z.object(Object.fromEntries(ROLLOUT_FIELDS.map((f) => [f, count])) as Record<(typeof ROLLOUT_FIELDS)[number], typeof count>);

export const machineProgressResponseSchema = z.object({
  /** The division the figures are of ('all' for every division); a Client's is theirs whatever they ask. */
  division: z.string(),
  /** The figures the owner entered (machine_dashboard_summary); null when none were ever entered. */
  summary: figuresSchema.extend({ updatedAt: z.string().nullable() }).nullable(),
  /** The same figures counted from the per-curve rollout records; null when there are none. */
  fromCurveRecords: figuresSchema.nullable(),
});
export type MachineProgressResponse = z.infer<typeof machineProgressResponseSchema>;

/** GET /api/machine-report?den=&aen=: the spec's answer; the file is GET /api/download/{reportId}. */
export const machineReportResponseSchema = z.object({
  reportId: z.string(),
  recordCount: count,
});
export type MachineReportResponse = z.infer<typeof machineReportResponseSchema>;
