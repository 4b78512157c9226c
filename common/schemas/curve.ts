import { z } from 'zod';
import { CURVE_LIST_LIMIT } from '../constants.js';

/** A curve of consolidated_curve_details as the API shows it. */
export const curveSchema = z.object({
  id: z.number().int(),
  no: z.number().int(),
  hkmCode: z.number().int().nullable(),
  divisionRailway: z.string(),
  section: z.string(),
  curveNumber: z.string(),
  line: z.string(),
  kmFrom: z.number().int().nullable(),
  metFrom: z.number().int().nullable(),
  kmTo: z.number().int().nullable(),
  metTo: z.number().int().nullable(),
  length: z.number().int().nullable(),
  station1: z.string().nullable(),
  station2: z.string().nullable(),
  degree: z.string().nullable(),
  den: z.string().nullable(),
  aen: z.string().nullable(),
  sse: z.string().nullable(),
  comments: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Curve = z.infer<typeof curveSchema>;

/** Most a single page of curves can hold: a whole zone's quick-select list, not the table. */
export const CURVE_PAGE_MAX = 5000;

export const curveListQuerySchema = z.object({
  limit: z.coerce
    .number({ error: 'limit must be a number' })
    .int('limit must be a whole number')
    .min(1, 'limit must be at least 1')
    .max(CURVE_PAGE_MAX, `limit must be at most ${CURVE_PAGE_MAX}`)
    .default(CURVE_LIST_LIMIT),
  offset: z.coerce
    .number({ error: 'offset must be a number' })
    .int('offset must be a whole number')
    .min(0, 'offset must be 0 or more')
    .default(0),
  division: z.string().trim().min(1).max(50).optional(),
  section: z.string().trim().min(1).max(100).optional(),
  sse: z.string().trim().min(1).max(150).optional(),
  /** Part of a curve number or a station name, or the start of an HKM code. */
  q: z.string().trim().max(100).optional().transform((v) => (v ? v : undefined)),
});
export type CurveListQuery = z.infer<typeof curveListQuerySchema>;

export const curveListResponseSchema = z.object({
  curves: z.array(curveSchema),
  total: z.number().int(),
});
