/**
 * The inspection contracts, shared by the entry form, the upload route and the tests:
 * one rule, one place. Messages are the spec's (section 5) where it gives them.
 */
import { z } from 'zod';
import {
  DIVISIONS,
  GREASE_DEPTH_MAX,
  GREASE_DEPTH_MIN,
  INSPECTION_TYPES,
  LINES,
  LOCATIONS,
  SERVICE_UPDATES,
} from '../constants.js';
import { COF_VALUE_PATTERN } from '../rules/cof-value.js';

const optionalText = (max: number, label: string) =>
  z
    .string({ error: `${label} must be text` })
    .trim()
    .max(max, `${label} must be at most ${max} characters`)
    .nullish()
    .transform((v) => (v ? v : null));

export const inspectionTypeSchema = z.enum(INSPECTION_TYPES, { error: 'Type must be Service or CoF' });
export const lineSchema = z.enum(LINES, { error: 'Please select a line' });
export const serviceUpdateSchema = z.enum(SERVICE_UPDATES, { error: 'Please select a service update' });

/** Parts are asked for only when something is broken or stolen. */
export const serviceUpdateNeedsPart = (update: string | null | undefined) =>
  update === 'part-broken' || update === 'part-stolen';

const isoDate = z
  .string({ error: 'Date is required' })
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Date must be in the form YYYY-MM-DD')
  .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v), 'Date is not a real date');

/** Step 1, the entry form (docs/functional-requirements.md, 'Validation limits'). */
export const inspectionEntryFields = {
  date: isoDate,
  type: inspectionTypeSchema,
  divisionRailway: z
    .string({ error: 'Division/Railway is required' })
    .trim()
    .min(1, 'Division/Railway is required')
    .refine((v) => (DIVISIONS as readonly string[]).includes(v), `Division/Railway must be one of ${DIVISIONS.join(', ')}`),
  section: z.string({ error: 'Section is required' }).trim().min(1, 'Section is required').max(100, 'Section must be at most 100 characters'),
  curveNumber: z
    .string({ error: 'Curve number is required' })
    .trim()
    .min(1, 'Curve number is required')
    .max(50, 'Curve number must be at most 50 characters'),
  line: lineSchema,
  station1: optionalText(100, 'Station 1'),
  station2: optionalText(100, 'Station 2'),
  railwayEngineer: optionalText(150, 'Railway engineer'),
  cofValue: z
    .string({ error: 'CoF value must be text' })
    .trim()
    .nullish()
    .transform((v) => (v && v !== '0.' ? v : null))
    .refine((v) => v === null || COF_VALUE_PATTERN.test(v), 'CoF value must be in the form 0.XX'),
  location: z.enum(LOCATIONS, { error: 'Location must be Far End or Near End' }).nullish().transform((v) => v ?? null),
  km: optionalText(20, 'KM'),
  pole1: optionalText(20, 'Pole 1'),
  pole2: optionalText(20, 'Pole 2'),
};

/** Step 2, service details (Service only). */
export const serviceDetailsFields = {
  serviceUpdate: serviceUpdateSchema.nullish().transform((v) => v ?? null),
  partCategory: optionalText(100, 'Category'),
  partItemName: optionalText(200, 'Item name'),
  greaseDepth: z
    .union([z.number(), z.string().trim()], { error: 'Grease depth must be a number' })
    .nullish()
    .transform((v, ctx) => {
      if (v === null || v === undefined || v === '') return null;
      const n = typeof v === 'number' ? v : Number(v);
      if (!Number.isFinite(n)) {
        ctx.addIssue({ code: 'custom', message: 'Grease depth must be a number' });
        return z.NEVER;
      }
      return n;
    })
    .refine((v) => v === null || (v >= GREASE_DEPTH_MIN && v <= GREASE_DEPTH_MAX), `Grease depth must be between ${GREASE_DEPTH_MIN} and ${GREASE_DEPTH_MAX} cm`)
    .refine((v) => v === null || Math.abs(v * 10 - Math.round(v * 10)) < 1e-9, 'Grease depth must be in steps of 0.1'),
};

/** Run the cross-field rules even when a field failed, so every problem is named at once. */
const ALWAYS = { when: () => true };

type EntryShape = { type: 'Service' | 'CoF'; cofValue: string | null; serviceUpdate?: string | null; partCategory?: string | null; partItemName?: string | null; isMachineWorking?: boolean | null };

/** The rules that depend on the type: CoF needs its value; Service its update, parts and answer. */
function checkTypeRules(value: EntryShape, ctx: z.RefinementCtx, stage: 'entry' | 'record') {
  // Run "always": also when the input is not an object at all (null metadata), which the
  // object check has already refused.
  if (typeof value !== 'object' || value === null) return;
  // These rules also run when other fields failed (so a form shows every message at once);
  // a field that failed its own check may then still hold its raw text.
  const cofMissing = value.cofValue === null || value.cofValue === undefined || value.cofValue === '' || value.cofValue === '0.';
  if (value.type === 'CoF' && cofMissing) {
    ctx.addIssue({ code: 'custom', path: ['cofValue'], message: 'CoF value is required' });
  }
  if (stage === 'entry' || value.type !== 'Service') return;
  if (!value.serviceUpdate) {
    ctx.addIssue({ code: 'custom', path: ['serviceUpdate'], message: 'Please select a service update' });
  }
  if (serviceUpdateNeedsPart(value.serviceUpdate)) {
    if (!value.partCategory) ctx.addIssue({ code: 'custom', path: ['partCategory'], message: 'Please select a part category' });
    if (!value.partItemName) ctx.addIssue({ code: 'custom', path: ['partItemName'], message: 'Please select an item name' });
  }
  if (value.isMachineWorking === null || value.isMachineWorking === undefined) {
    ctx.addIssue({ code: 'custom', path: ['isMachineWorking'], message: 'Please answer: Is the Machine working?' });
  }
}

export const inspectionEntrySchema = z
  .object(inspectionEntryFields)
  .superRefine((v, ctx) => checkTypeRules(v, ctx, 'entry'), ALWAYS);
export type InspectionEntry = z.infer<typeof inspectionEntrySchema>;

export const serviceDetailsSchema = z.object(serviceDetailsFields).superRefine((v, ctx) => {
  if (!v.serviceUpdate) ctx.addIssue({ code: 'custom', path: ['serviceUpdate'], message: 'Please select a service update' });
  if (serviceUpdateNeedsPart(v.serviceUpdate)) {
    if (!v.partCategory) ctx.addIssue({ code: 'custom', path: ['partCategory'], message: 'Please select a part category' });
    if (!v.partItemName) ctx.addIssue({ code: 'custom', path: ['partItemName'], message: 'Please select an item name' });
  }
}, ALWAYS);
export type ServiceDetails = z.infer<typeof serviceDetailsSchema>;

/**
 * The `metadata` JSON of POST /api/inspections/upload. technicianId and technicianName may
 * be sent (the spec's client does) but the server takes them from the session.
 */
export const uploadMetadataSchema = z
  .object({
    ...inspectionEntryFields,
    ...serviceDetailsFields,
    isMachineWorking: z
      .union([z.boolean(), z.enum(['yes', 'no'])], { error: "Is the Machine working? must be 'yes' or 'no'" })
      .nullish()
      .transform((v) => (v === undefined || v === null ? null : v === true || v === 'yes')),
    clientSubmissionId: z.uuid({ error: 'clientSubmissionId must be a UUID' }),
    /**
     * The photo's sha256 as the phone stored it (64 hex digits): the server checks the bytes it
     * receives against it. Records queued in a phone's outbox before phones sent it have none;
     * the server then only computes it.
     */
    photoSha256: z
      .string({ error: 'photoSha256 must be the sha256 of the photo as 64 hex digits' })
      .regex(/^[0-9a-fA-F]{64}$/, 'photoSha256 must be the sha256 of the photo as 64 hex digits')
      .transform((hash) => hash.toLowerCase())
      .optional(),
    technicianId: z.string().optional(),
    technicianName: z.string().optional(),
    latitude: z.number({ error: 'latitude must be a number' }).min(-90, 'latitude must be -90 to 90').max(90, 'latitude must be -90 to 90').nullish().transform((v) => v ?? null),
    longitude: z.number({ error: 'longitude must be a number' }).min(-180, 'longitude must be -180 to 180').max(180, 'longitude must be -180 to 180').nullish().transform((v) => v ?? null),
    accuracy: z.number({ error: 'accuracy must be a number' }).min(0, 'accuracy must be 0 or more').nullish().transform((v) => v ?? null),
  })
  .superRefine((v, ctx) => checkTypeRules(v, ctx, 'record'), ALWAYS);
export type UploadMetadata = z.infer<typeof uploadMetadataSchema>;
export type UploadMetadataInput = z.input<typeof uploadMetadataSchema>;

export const uploadResponseSchema = z.object({
  recordId: z.string(),
  fileName: z.string(),
  imageUrl: z.string(),
  imageHash: z.string(),
  imageSizeBytes: z.number().int(),
  imageWidth: z.number().int(),
  imageHeight: z.number().int(),
  /** True when this clientSubmissionId had already been stored: nothing new was written. */
  duplicate: z.boolean(),
});
export type UploadResponse = z.infer<typeof uploadResponseSchema>;

/** Where a stored photo's decode stands (set after the upload's commit by the server's photo worker). */
export const photoStateSchema = z.enum(['pending', 'ready', 'undecodable']);
export type PhotoState = z.infer<typeof photoStateSchema>;

export const inspectionLogSchema = z.object({
  id: z.number().int(),
  recordId: z.string(),
  date: z.string(),
  type: inspectionTypeSchema,
  divisionRailway: z.string(),
  section: z.string(),
  curveNumber: z.string(),
  line: z.string(),
  technicianId: z.string(),
  technicianName: z.string(),
  cofValue: z.string().nullable(),
  location: z.string().nullable(),
  station1: z.string().nullable(),
  station2: z.string().nullable(),
  km: z.string().nullable(),
  pole1: z.string().nullable(),
  pole2: z.string().nullable(),
  railwayEngineer: z.string().nullable(),
  imageUrl: z.string().nullable(),
  /** A small WebP of the photo made by the server for grids; null when the record has no photo. */
  thumbnailUrl: z.string().nullable(),
  fileName: z.string().nullable(),
  imageHash: z.string().nullable(),
  imageSizeBytes: z.number().int().nullable(),
  imageWidth: z.number().int().nullable(),
  imageHeight: z.number().int().nullable(),
  /**
   * The photo's decode after the upload: 'pending' until the server has read it whole,
   * 'undecodable' when its pixels could not be read (the records view flags it).
   */
  photoState: photoStateSchema,
  serviceUpdate: z.string().nullable(),
  partCategory: z.string().nullable(),
  partItemName: z.string().nullable(),
  isMachineWorking: z.boolean().nullable(),
  greaseDepth: z.string().nullable(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  locationAccuracyM: z.number().nullable(),
  submittedAt: z.string(),
});
export type InspectionLog = z.infer<typeof inspectionLogSchema>;

export const INSPECTION_PAGE_DEFAULT = 50;
export const INSPECTION_PAGE_MAX = 500;

/** A query-string filter value: trimmed, and '' counts as not given (a cleared filter field). */
export const filterText = (max: number, label: string) =>
  z
    .string()
    .trim()
    .max(max, `${label} must be at most ${max} characters`)
    .optional()
    .transform((v) => (v ? v : undefined));

export const filterDate = (label: string) =>
  z
    .string()
    .trim()
    .optional()
    .transform((v) => (v ? v : undefined))
    .refine((v) => v === undefined || isoDate.safeParse(v).success, `${label} must be a real date in the form YYYY-MM-DD`);

/**
 * GET /api/inspections: one page of records, newest first, filtered on the server. Clients are
 * held to their division whatever `division` says; Technicians see their own records.
 */
export const inspectionListQuerySchema = z
  .object({
    limit: z.coerce.number({ error: 'limit must be a number' }).int('limit must be a whole number').min(1, 'limit must be at least 1').max(INSPECTION_PAGE_MAX, `limit must be at most ${INSPECTION_PAGE_MAX}`).default(INSPECTION_PAGE_DEFAULT),
    offset: z.coerce.number({ error: 'offset must be a number' }).int('offset must be a whole number').min(0, 'offset must be 0 or more').max(10_000_000, 'offset is too large').default(0),
    /** The visit's date (`date`, the device's local date), inclusive. */
    from: filterDate('from'),
    to: filterDate('to'),
    type: z
      .string()
      .trim()
      .optional()
      .transform((v) => (v ? v : undefined))
      .refine((v) => v === undefined || (INSPECTION_TYPES as readonly string[]).includes(v), 'type must be Service or CoF'),
    division: filterText(50, 'division'),
    section: filterText(100, 'section'),
    curveNumber: filterText(50, 'curveNumber'),
    technicianId: filterText(50, 'technicianId'),
    /** Part of a record ID, e.g. the six characters at its end; case does not matter. */
    q: filterText(64, 'q'),
  })
  .refine((v) => v.from === undefined || v.to === undefined || v.from <= v.to, { path: ['to'], message: 'to must be on or after from' });
export type InspectionListQuery = z.infer<typeof inspectionListQuerySchema>;

export const inspectionListResponseSchema = z.object({ logs: z.array(inspectionLogSchema), total: z.number().int() });
export type InspectionListResponse = z.infer<typeof inspectionListResponseSchema>;

/** The stored flow state (sessionStorage 'hkmi_inspection_entry'), the session entry of docs/architecture.md, 'Entities and stored shapes'. */
export interface SessionEntry {
  date: string;
  type: 'Service' | 'CoF';
  divisionRailway: string;
  section: string;
  curveNumber: string;
  line: string;
  station1: string;
  station2: string;
  railwayEngineer: string;
  sse: string;
  cofValue: string;
  location: string;
  km: string;
  pole1: string;
  pole2: string;
  serviceUpdate?: string;
  partCategory?: string;
  partItemName?: string;
  greaseDepth?: string;
  isMachineWorking?: 'yes' | 'no';
  imageUrl?: string;
  fileName?: string;
  /** Made when the entry is first saved; every upload try of this entry sends the same one. */
  clientSubmissionId: string;
}

/** sessionStorage 'hkmi_submission_result'. */
export interface SubmissionResult {
  recordId: string;
  fileName: string;
}
