import { z } from 'zod';
import type {
  FileCheckSummary,
  FileRecreateSummary,
  FileRestoreSummary,
  FileTaskKind,
  FileTaskState,
  PhotoProblemPage,
} from '../../../../../common/schemas/file-tools.js';
import { apiRequest } from '../../../lib/api-client.js';

/*
 * common/schemas/file-tools.ts is imported for its types only (as the other admin views do):
 * its schemas built at run time would pull more of Zod into the entry chunk. The answers are
 * read with the small schemas below; the parse functions' return types are the contract's
 * types, so a change there that these do not follow fails the type check.
 */

/** The records of a status check asked a page at a time (the contract's default). */
export const FILE_PROBLEM_PAGE_SIZE = 20;

const FILES_URL = '/api/admin/files';
export const FILE_STATUS_URL = `${FILES_URL}/status`;
export const fileTaskUrl = (taskId: string) => `${FILES_URL}/tasks/${encodeURIComponent(taskId)}`;

/** GET of a finished check's records, one page: reads the check again, never starts one. */
export const fileProblemsPageUrl = (taskId: string, page: number) =>
  `${FILE_STATUS_URL}?${new URLSearchParams({ taskId, page: String(page), pageSize: String(FILE_PROBLEM_PAGE_SIZE) }).toString()}`;
/** Query key of a page: its first element is the page's URL, as the app's other keys. */
export const fileProblemsPageKey = (taskId: string, page: number) => [fileProblemsPageUrl(taskId, page)] as const;

const count = z.number().int().min(0);

const checkSummarySchema = z.object({ missing: count, corrupt: count, total: count, orphans: count });
const restoreSummarySchema = z.object({ restoredCount: count, failedCount: count, stillMissingCount: count });
const recreateSummarySchema = z.object({ recreatedCount: count, skippedCount: count });

const problemPageSchema = z.object({
  items: z.array(
    z.object({
      recordId: z.string(),
      problem: z.enum(['missing', 'corrupt']),
      imageHash: z.string(),
      date: z.string(),
      type: z.string(),
      divisionRailway: z.string().nullable(),
      curveNumber: z.string().nullable(),
      technicianName: z.string().nullable(),
    }),
  ),
  page: z.number().int().min(1),
  pageSize: z.number().int().min(1),
  total: count,
});

/** The task as every file tool answers it; the summary is read by the task's kind (see finishedTask). */
const taskSchema = z.object({
  taskId: z.string().min(1),
  kind: z.enum(['check', 'restore', 'recreate']),
  state: z.enum(['running', 'done', 'failed']),
  progress: z.object({ done: count, total: count }),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  error: z.string().nullable(),
  summary: z.unknown(),
  records: problemPageSchema.optional(),
});

export interface FileTaskAnswer {
  taskId: string;
  kind: FileTaskKind;
  state: FileTaskState;
  progress: { done: number; total: number };
  finishedAt: string | null;
  error: string | null;
  /** Not read yet: its shape depends on the kind (finishedTask reads it). */
  summary: unknown;
  records?: PhotoProblemPage;
}

/** A task that is done, with the summary of its own kind. */
export type FinishedFileTask =
  | { kind: 'check'; taskId: string; finishedAt: string | null; summary: FileCheckSummary; records?: PhotoProblemPage }
  | { kind: 'restore'; taskId: string; finishedAt: string | null; summary: FileRestoreSummary }
  | { kind: 'recreate'; taskId: string; finishedAt: string | null; summary: FileRecreateSummary };

export const parseFileTask = (body: unknown): FileTaskAnswer => taskSchema.parse(body);

/** Throws when a done task's summary is not its kind's (the card then says the tool failed). */
export function finishedTask(task: FileTaskAnswer): FinishedFileTask {
  const { taskId, finishedAt } = task;
  switch (task.kind) {
    case 'check':
      return { kind: 'check', taskId, finishedAt, summary: checkSummarySchema.parse(task.summary), records: task.records };
    case 'restore':
      return { kind: 'restore', taskId, finishedAt, summary: restoreSummarySchema.parse(task.summary) };
    case 'recreate':
      return { kind: 'recreate', taskId, finishedAt, summary: recreateSummarySchema.parse(task.summary) };
  }
}

/** The records page of GET /api/admin/files/status?taskId=...; throws when the answer has none. */
export function parseProblemPage(body: unknown): PhotoProblemPage {
  const { records } = parseFileTask(body);
  if (records === undefined) throw new Error('The status check answered without its records');
  return records;
}

/** Another page of a finished check's records (GET /api/admin/files/status?taskId=&page=&pageSize=). */
export async function fetchProblemPage(taskId: string, page: number): Promise<PhotoProblemPage> {
  const res = await apiRequest('GET', fileProblemsPageUrl(taskId, page));
  return parseProblemPage(await res.json());
}

const START: Record<FileTaskKind, { method: 'GET' | 'POST'; url: string }> = {
  // A GET that starts work (the contract's): it is called here only, never as a cached query.
  check: { method: 'GET', url: FILE_STATUS_URL },
  restore: { method: 'POST', url: `${FILES_URL}/restore` },
  recreate: { method: 'POST', url: `${FILES_URL}/recreate` },
};

/**
 * Starts a file tool (or joins the check already running): 200 with the task done, or 202
 * with it running. No body is sent. apiRequest takes no AbortSignal: the caller drops the
 * answer when it has been cancelled meanwhile.
 */
export async function startFileTask(kind: FileTaskKind): Promise<FileTaskAnswer> {
  const { method, url } = START[kind];
  const res = await apiRequest(method, url);
  return parseFileTask(await res.json());
}

/** GET /api/admin/files/tasks/{taskId}: the task as it is now. */
export async function fetchFileTask(taskId: string): Promise<FileTaskAnswer> {
  const res = await apiRequest('GET', fileTaskUrl(taskId));
  return parseFileTask(await res.json());
}

/**
 * GET /api/admin/files/tasks: the newest task of each kind. A card opened later (after a
 * reload, or by another Admin) follows a task still running, or shows the last result.
 */
export async function fetchLatestFileTasks(): Promise<FileTaskAnswer[]> {
  const res = await apiRequest('GET', `${FILES_URL}/tasks`);
  return z.object({ tasks: z.array(taskSchema) }).parse(await res.json()).tasks;
}
