/**
 * The Admin's photo file tools (issue 14): a status check of every
 * record's photo, restoring missing or corrupt photos from the backups by hash, and making the
 * derived files (thumbnails, print copies) again from the originals.
 *
 * Each is a task that may take minutes over a large store: the request answers 200 with the
 * finished task when it is done within a moment, else 202 with the task running, and the view
 * follows GET /api/admin/files/tasks/{taskId} until it is done. Tasks are rows, so any
 * instance answers for a task another instance runs.
 */
import { z } from 'zod';

export const FILE_TASK_KINDS = ['check', 'restore', 'recreate'] as const;
export type FileTaskKind = (typeof FILE_TASK_KINDS)[number];

export const FILE_TASK_STATES = ['running', 'done', 'failed'] as const;
export type FileTaskState = (typeof FILE_TASK_STATES)[number];

/** What is wrong with a record's photo: no file, or a file whose bytes no longer hash to the record's sha256. */
export const PHOTO_PROBLEMS = ['missing', 'corrupt'] as const;
export type PhotoProblem = (typeof PHOTO_PROBLEMS)[number];

const count = z.number().int().min(0);

/**
 * GET /api/admin/files/status. The spec's {missing, total}, plus: corrupt files; orphans, photo
 * files no record uses (a submission the phone never sent again) older than an hour.
 * total counts the records that have a photo.
 */
export const fileCheckSummarySchema = z.object({ missing: count, corrupt: count, total: count, orphans: count });
export type FileCheckSummary = z.infer<typeof fileCheckSummarySchema>;

/** POST /api/admin/files/restore, the spec's shape. */
export const fileRestoreSummarySchema = z.object({ restoredCount: count, failedCount: count, stillMissingCount: count });
export type FileRestoreSummary = z.infer<typeof fileRestoreSummarySchema>;

/** POST /api/admin/files/recreate: the spec's recreatedCount, plus the photos skipped because their original is missing or corrupt. */
export const fileRecreateSummarySchema = z.object({ recreatedCount: count, skippedCount: count });
export type FileRecreateSummary = z.infer<typeof fileRecreateSummarySchema>;

/** One record whose photo has a problem, as the status check lists them. */
export const photoProblemRecordSchema = z.object({
  recordId: z.string(),
  problem: z.enum(PHOTO_PROBLEMS),
  imageHash: z.string(),
  date: z.string(),
  type: z.string(),
  divisionRailway: z.string().nullable(),
  curveNumber: z.string().nullable(),
  technicianName: z.string().nullable(),
});
export type PhotoProblemRecord = z.infer<typeof photoProblemRecordSchema>;

export const FILE_PROBLEM_PAGE_SIZE_MAX = 100;
/** The page of records a status check answers when none is asked for, and the view asks. */
export const FILE_PROBLEM_PAGE_SIZE_DEFAULT = 20;

export const photoProblemPageSchema = z.object({
  items: z.array(photoProblemRecordSchema),
  page: z.number().int().min(1),
  pageSize: z.number().int().min(1),
  total: count,
});
export type PhotoProblemPage = z.infer<typeof photoProblemPageSchema>;

/** Every file tool answers with its task; `summary` is set once the task is done. */
export const fileTaskSchema = z.object({
  taskId: z.uuid(),
  kind: z.enum(FILE_TASK_KINDS),
  state: z.enum(FILE_TASK_STATES),
  /** Photos looked at so far, of how many. */
  progress: z.object({ done: count, total: count }),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  /** Why a failed task failed, in words for the Admin. */
  error: z.string().nullable(),
  summary: z.union([fileCheckSummarySchema, fileRestoreSummarySchema, fileRecreateSummarySchema]).nullable(),
  /** Status checks only, once done: the records affected, a page at a time. */
  records: photoProblemPageSchema.optional(),
});
export type FileTask = z.infer<typeof fileTaskSchema>;

/** GET /api/admin/files/tasks: the newest task of each kind. */
export const fileTaskListResponseSchema = z.object({ tasks: z.array(fileTaskSchema) });

const pageNumber = z.coerce.number({ error: 'page must be a number' }).int('page must be a whole number').min(1, 'page must be 1 or more').max(1_000_000, 'page must be at most 1000000');

/**
 * GET /api/admin/files/status: with no taskId a new check starts (or the one running is
 * joined); with a taskId, that check's result is read again, e.g. another page of records.
 */
export const fileStatusQuerySchema = z.object({
  taskId: z.uuid({ error: 'taskId must be a task ID' }).optional(),
  page: pageNumber.default(1),
  pageSize: z.coerce
    .number({ error: 'pageSize must be a number' })
    .int('pageSize must be a whole number')
    .min(1, 'pageSize must be 1 or more')
    .max(FILE_PROBLEM_PAGE_SIZE_MAX, `pageSize must be at most ${FILE_PROBLEM_PAGE_SIZE_MAX}`)
    .default(FILE_PROBLEM_PAGE_SIZE_DEFAULT),
});
export type FileStatusQuery = z.infer<typeof fileStatusQuerySchema>;

export const fileTaskParamsSchema = z.object({ taskId: z.uuid({ error: 'taskId must be a task ID' }) });
