/**
 * The curve and station register as an admin writes it: the bodies of the add and edit calls,
 * the rows of an imported sheet (the same rules, applied to each row), the register's filter
 * lists and the import answer. Limits are the columns' (server/db/schema.ts); messages name
 * the field as the forms label it, so they can stand under an input or beside a row number.
 */
import { z } from 'zod';
import { DIVISIONS, INT4_MAX, LINES } from '../constants.js';
import { lineFromCode } from '../rules/line-codes.js';
import { curveSchema } from './curve.js';
import { importRowErrorSchema } from './error-body.js';
import { stationSchema } from './reference.js';

/** Largest value of a PostgreSQL integer column. */
// Control characters break spreadsheets and XML; tabs and line breaks are kept only in comments.
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

/** A spreadsheet cell or a form input left empty, or a field left out, means "no value". */
const blankToNull = (value: unknown) => (value === undefined || (typeof value === 'string' && value.trim() === '') ? null : value);
/** The message of a required field when it is missing, else the field's own rule. */
const requiredOr = (label: string, rule: string) => (issue: { input?: unknown }) =>
  issue.input === undefined || issue.input === null ? `${label} is required` : rule;

/** Whole numbers arrive as JSON numbers from the forms and as text from CSV cells. */
function toNumber(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const text = value.trim();
  return /^[+-]?\d+(\.\d+)?$/.test(text) ? Number(text) : value;
}

/** A one-line name: line breaks (Alt+Enter in a spreadsheet cell) and runs of spaces become one space. */
const oneLine = (value: unknown) => (typeof value === 'string' ? value.replace(/\s+/g, ' ') : value);
/** Line breaks as LF: an XLSX cell cannot keep a CR (XML reads CRLF as LF), so an exported sheet would differ. */
const lfBreaks = (value: unknown) => (typeof value === 'string' ? value.replace(/\r\n?/g, '\n') : value);

function requiredText(label: string, max: number) {
  return z.preprocess(
    oneLine,
    z
      .string({ error: requiredOr(label, `${label} must be text`) })
      .trim()
      .min(1, `${label} is required`)
      .max(max, `${label} must be at most ${max} characters`)
      .refine((v) => !CONTROL_CHARACTERS.test(v), `${label} must not contain control characters`),
  );
}

function optionalText(label: string, max: number, { multiline = false } = {}) {
  return z.preprocess(
    (v) => blankToNull(multiline ? lfBreaks(v) : oneLine(v)),
    z
      .string({ error: `${label} must be text` })
      .trim()
      .max(max, `${label} must be at most ${max} characters`)
      .refine((v) => !CONTROL_CHARACTERS.test(v), `${label} must not contain control characters`)
      .nullable(),
  );
}

function wholeNumber(label: string, { min = 0, max = INT4_MAX, required = false } = {}) {
  return z.preprocess(
    required ? (v: unknown) => toNumber(blankToNull(v) ?? undefined) : toNumber,
    z
      .number({ error: required ? requiredOr(label, `${label} must be a whole number`) : `${label} must be a whole number` })
      .int(`${label} must be a whole number`)
      .min(min, `${label} must be at least ${min}`)
      .max(max, `${label} must be at most ${max}`),
  );
}

const requiredWholeNumber = (label: string) => wholeNumber(label, { required: true });
const optionalWholeNumber = (label: string, options?: { min?: number; max?: number }) =>
  z.preprocess(blankToNull, wholeNumber(label, options).nullable());

const divisionField = z.preprocess(
  (v) => (typeof v === 'string' ? v.trim() || undefined : v),
  z.enum(DIVISIONS, { error: requiredOr('Division/Railway', `Division/Railway must be one of ${DIVISIONS.join(', ')}`) }),
);

/** Up, Down or Single; the register's codes UP, DN and SL, and any case, are understood. */
const lineField = z.preprocess((v) => (typeof v === 'string' ? (lineFromCode(v) ?? v) : v), z.enum(LINES, { error: 'Please select a line' }));

/** numeric(5,2): kept as the database writes it ("2.50"), so an unchanged sheet compares equal. */
const degreeField = z.preprocess(
  (v) => toNumber(blankToNull(v)),
  z
    .number({ error: 'Degree must be a number' })
    .min(0, 'Degree must be at least 0')
    .max(999.99, 'Degree must be at most 999.99')
    .refine((v) => Math.abs(v * 100 - Math.round(v * 100)) < 1e-6, 'Degree must have at most 2 decimals')
    .transform((v) => v.toFixed(2))
    .nullable(),
);

/** Every field of a curve an admin can write, with its rule. */
export const curveFields = {
  no: requiredWholeNumber('No.'),
  hkmCode: optionalWholeNumber('HKM code', { min: 1 }),
  divisionRailway: divisionField,
  section: requiredText('Section', 100),
  curveNumber: requiredText('Curve number', 50),
  line: lineField,
  kmFrom: optionalWholeNumber('Km from'),
  metFrom: optionalWholeNumber('Met from'),
  kmTo: optionalWholeNumber('Km to'),
  metTo: optionalWholeNumber('Met to'),
  length: optionalWholeNumber('Length'),
  station1: optionalText('Station 1', 100),
  station2: optionalText('Station 2', 100),
  degree: degreeField,
  den: optionalText('DEN', 100),
  aen: optionalText('AEN', 150),
  sse: optionalText('SSE', 150),
  comments: optionalText('Comments', 2000, { multiline: true }),
};
export type CurveField = keyof typeof curveFields;
export const CURVE_REQUIRED_FIELDS = ['no', 'divisionRailway', 'section', 'curveNumber', 'line'] as const satisfies readonly CurveField[];
export const CURVE_OPTIONAL_FIELDS = [
  'hkmCode',
  'kmFrom',
  'metFrom',
  'kmTo',
  'metTo',
  'length',
  'station1',
  'station2',
  'degree',
  'den',
  'aen',
  'sse',
  'comments',
] as const satisfies readonly CurveField[];

/** POST /api/consolidated-curves (docs/functional-requirements.md, 'Curve and station register'): optional fields left out are empty. */
export const curveCreateSchema = z.object(curveFields);
export type CurveInput = z.infer<typeof curveCreateSchema>;

/**
 * PUT /api/admin/curves/{section}/{curveNumber}/{line} (Edit curve): the key
 * fields are required (the key itself may change); an optional field sent as null or empty is
 * cleared, one left out keeps its value, since the spec's client sends only some of them.
 */
export const curveUpdateSchema = z
  .object(curveFields)
  .partial(Object.fromEntries(CURVE_OPTIONAL_FIELDS.map((f) => [f, true])) as { [K in (typeof CURVE_OPTIONAL_FIELDS)[number]]: true });
export type CurveUpdate = z.infer<typeof curveUpdateSchema>;

/** The path of a curve: URL-encoded names, so 'BEC Bypass' and sections with a slash work. */
export const curveKeyParamsSchema = z.object({
  section: z.string().min(1, 'section is required').max(100, 'section must be at most 100 characters'),
  curveNumber: z.string().min(1, 'curveNumber is required').max(50, 'curveNumber must be at most 50 characters'),
  line: z.string().min(1, 'line is required').max(10, 'line must be at most 10 characters'),
});
export type CurveKey = { section: string; curveNumber: string; line: string };

export const curveResponseSchema = z.object({ curve: curveSchema });
export const curveDeleteResponseSchema = z.object({ deleted: z.literal(true), curve: curveSchema });

/** Every field of a station an admin can write. */
export const stationFields = {
  no: requiredWholeNumber('No.'),
  stationName: requiredText('Station name', 100),
  stationCode: requiredText('Station code', 20),
  section: requiredText('Section', 100),
  divisionRailway: divisionField,
};
export type StationField = keyof typeof stationFields;
export const STATION_REQUIRED_FIELDS = ['no', 'stationName', 'stationCode', 'section', 'divisionRailway'] as const satisfies readonly StationField[];

/** POST /api/stations and PUT /api/admin/stations/{id}; an `id` in the body must be the path's. */
export const stationInputSchema = z.object({ ...stationFields, id: z.unknown().optional() });
export type StationInput = Omit<z.infer<typeof stationInputSchema>, 'id'>;
export const stationIdParamsSchema = z.object({
  id: z.coerce.number({ error: 'id must be a number' }).int('id must be a whole number').min(1, 'id must be at least 1').max(INT4_MAX, 'id is too large'),
});
export const stationResponseSchema = z.object({ station: stationSchema });
export const stationDeleteResponseSchema = z.object({ deleted: z.literal(true), station: stationSchema });

/**
 * GET /api/register-filters: the register's lists for filters, sections (of curves or stations,
 * of a division) and SSE names, 'SSE' placeholders left out, alphabetical.
 */
export const registerFiltersQuerySchema = z.object({
  division: z.string().trim().min(1).max(50).optional(),
});
export const registerFiltersResponseSchema = z.object({
  sections: z.array(z.object({ divisionRailway: z.string(), section: z.string() })),
  sses: z.array(z.string()),
});
export type RegisterFilters = z.infer<typeof registerFiltersResponseSchema>;

/** GET /api/admin/stations: the station-details view's paged, filtered list. */
export const REGISTER_PAGE_MAX = 500;
const pageFields = {
  limit: z.coerce
    .number({ error: 'limit must be a number' })
    .int('limit must be a whole number')
    .min(1, 'limit must be at least 1')
    .max(REGISTER_PAGE_MAX, `limit must be at most ${REGISTER_PAGE_MAX}`)
    .default(20),
  offset: z.coerce.number({ error: 'offset must be a number' }).int('offset must be a whole number').min(0, 'offset must be 0 or more').default(0),
};
const filterText = (max: number) => z.string().trim().max(max).optional().transform((v) => (v ? v : undefined));
export const stationRegisterQuerySchema = z.object({
  ...pageFields,
  division: filterText(50),
  section: filterText(100),
  q: filterText(100),
});
export type StationRegisterQuery = z.infer<typeof stationRegisterQuerySchema>;
export const stationRegisterResponseSchema = z.object({ stations: z.array(stationSchema), total: z.number().int() });

/** The two registers a sheet can load. */
export const REGISTER_KINDS = ['curves', 'stations'] as const;
export type RegisterKind = (typeof REGISTER_KINDS)[number];

// A row's problem is also part of a refused import's error body, hence its home there.
export { type ImportRowError, importRowErrorSchema } from './error-body.js';

/**
 * The answer of POST /api/import-excel. `count` is the spec's: rows taken from the file (added,
 * changed and unchanged); `unknownColumns` are headers that match no field (their cells are not
 * read). A dry run writes nothing and answers 200 with the row errors; a real import with any
 * row error answers 400 with the same `rowErrors`, and writes nothing either.
 */
export const importResultSchema = z.object({
  type: z.enum(REGISTER_KINDS),
  dryRun: z.boolean(),
  valid: z.boolean(),
  count: z.number().int(),
  added: z.number().int(),
  changed: z.number().int(),
  unchanged: z.number().int(),
  unknownColumns: z.array(z.string()),
  rowErrors: z.array(importRowErrorSchema),
});
export type ImportResult = z.infer<typeof importResultSchema>;

/** Files an import accepts: at most this many bytes and data rows. */
export const IMPORT_MAX_BYTES = 10 * 1024 * 1024;
export const IMPORT_MAX_ROWS = 20_000;
