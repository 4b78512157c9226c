import {
  FILE_PROBLEM_PAGE_SIZE_DEFAULT,
  type FileCheckSummary,
  fileCheckSummarySchema,
  type FileRecreateSummary,
  fileRecreateSummarySchema,
  type FileRestoreSummary,
  fileRestoreSummarySchema,
  type FileTask,
  type FileTaskKind,
  fileTaskListResponseSchema,
  fileTaskSchema,
  type PhotoProblemPage,
} from '../../../../../common/schemas/file-tools.js';
import { apiRequest } from '../../../lib/api-client.js';

const FILES_URL = '/api/admin/files';
export const FILE_STATUS_URL = `${FILES_URL}/status`;
export const fileTaskUrl = (taskId: string) => `${FILES_URL}/tasks/${encodeURIComponent(taskId)}`;

/** GET of a finished check's records, one page: reads the check again, never starts one. */
export const fileProblemsPageUrl = (taskId: string, page: number) =>
  `${FILE_STATUS_URL}?${new URLSearchParams({ taskId, page: String(page), pageSize: String(FILE_PROBLEM_PAGE_SIZE_DEFAULT) }).toString()}`;
/** Query key of a page: its first element is the page's URL, as the app's other keys. */
export const fileProblemsPageKey = (taskId: string, page: number) => [fileProblemsPageUrl(taskId, page)] as const;

/** The task as every file tool answers it; its summary is read by the task's kind (see finishedTask). */
export type FileTaskAnswer = FileTask;

/** A task that is done, with the summary of its own kind. */
export type FinishedFileTask =
  | { kind: 'check'; taskId: string; finishedAt: string | null; summary: FileCheckSummary; records?: PhotoProblemPage }
  | { kind: 'restore'; taskId: string; finishedAt: string | null; summary: FileRestoreSummary }
  | { kind: 'recreate'; taskId: string; finishedAt: string | null; summary: FileRecreateSummary };

export const parseFileTask = (body: unknown): FileTaskAnswer => fileTaskSchema.parse(body);

/** Throws when a done task's summary is not its kind's (the card then says the tool failed). */
export function finishedTask(task: FileTaskAnswer): FinishedFileTask {
  const { taskId, finishedAt } = task;
  switch (task.kind) {
    case 'check':
      return { kind: 'check', taskId, finishedAt, summary: fileCheckSummarySchema.parse(task.summary), records: task.records };
    case 'restore':
      return { kind: 'restore', taskId, finishedAt, summary: fileRestoreSummarySchema.parse(task.summary) };
    case 'recreate':
      return { kind: 'recreate', taskId, finishedAt, summary: fileRecreateSummarySchema.parse(task.summary) };
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
  return fileTaskListResponseSchema.parse(await res.json()).tasks;
}
