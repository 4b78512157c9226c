import { and, asc, count, desc, eq, inArray, isNotNull, lt, ne, sql } from 'drizzle-orm';
import { FILE_TASK_KINDS, type FileTaskKind, type PhotoProblem } from '../../../common/schemas/file-tools.js';
import type { Db, DbOrTx } from '../../db/client.js';
import { blobDeletions, fileTaskProblems, fileTasks, inspectionLogs, jobs, reports } from '../../db/schema.js';
import { failStaleJobs, finishJobHere, heartbeatJob, startJobHere } from '../../jobs/index.js';

/** A file task's job kind, which is also its unique key: one task of a kind runs at a time. */
const jobKindOf = (kind: FileTaskKind | string) => `files.${kind}`;
const FILE_JOB_KINDS = FILE_TASK_KINDS.map(jobKindOf);

/** A running task whose heartbeat is older than this died with its instance. */
export const FILE_TASK_STALE_MS = 60_000;

const STOPPED = 'The server running this task stopped before it finished. Start it again.';

const taskColumns = {
  id: fileTasks.id,
  kind: fileTasks.kind,
  requestedByEmployeeId: fileTasks.requestedByEmployeeId,
  state: jobs.status,
  progressDone: jobs.progressDone,
  progressTotal: jobs.progressTotal,
  summary: jobs.result,
  error: jobs.error,
  heartbeatAt: jobs.heartbeatAt,
  startedAt: jobs.startedAt,
  createdAt: jobs.createdAt,
  finishedAt: jobs.finishedAt,
};
type JoinedTask = Awaited<ReturnType<typeof selectTasks>>[number];
/** A file task as its record and its job say together (a task is started when it is made). */
export type FileTaskRow = Omit<JoinedTask, 'startedAt' | 'createdAt'> & { startedAt: Date };

const selectTasks = (db: DbOrTx) => db.select(taskColumns).from(fileTasks).innerJoin(jobs, eq(jobs.id, fileTasks.id));
const asTask = ({ createdAt, startedAt, ...row }: JoinedTask): FileTaskRow => ({ ...row, startedAt: startedAt ?? createdAt });

/** Marks tasks whose instance stopped as failed, so they are neither joined nor shown as running. */
const failStaleTasks = (db: DbOrTx, now: Date) => failStaleJobs(db, { kinds: FILE_JOB_KINDS }, FILE_TASK_STALE_MS, STOPPED, now);

/** The running task of this kind, or a new one run by `worker`: two Admins pressing the button run one task. */
export async function claimFileTask(db: Db, kind: FileTaskKind, employeeId: string, now: Date, worker: string): Promise<{ task: FileTaskRow; isNew: boolean }> {
  const outcome = await startJobHere(db, {
    kind: jobKindOf(kind),
    uniqueKey: jobKindOf(kind),
    staleMs: FILE_TASK_STALE_MS,
    staleError: STOPPED,
    worker,
    now,
    record: async (tx, id) => void (await tx.insert(fileTasks).values({ id, kind, requestedByEmployeeId: employeeId })),
  });
  const id = outcome.started ? outcome.job.id : outcome.running.id;
  const [task] = await selectTasks(db).where(eq(fileTasks.id, id));
  if (!task) throw new Error(`file task ${id} has no record`);
  return { task: asTask(task), isNew: outcome.started };
}

export async function findFileTask(db: Db, taskId: string, now: Date): Promise<FileTaskRow | undefined> {
  const [row] = await selectTasks(db).where(eq(fileTasks.id, taskId));
  if (row?.state === 'running' && (row.heartbeatAt?.getTime() ?? 0) < now.getTime() - FILE_TASK_STALE_MS) {
    await failStaleTasks(db, now);
    const [again] = await selectTasks(db).where(eq(fileTasks.id, taskId));
    return again && asTask(again);
  }
  return row && asTask(row);
}

/** The newest task of each kind, so a view opened later finds a task still running or its result. */
export async function latestFileTasks(db: Db, now: Date): Promise<FileTaskRow[]> {
  await failStaleTasks(db, now);
  const rows = await db
    .selectDistinctOn([fileTasks.kind], taskColumns)
    .from(fileTasks)
    .innerJoin(jobs, eq(jobs.id, fileTasks.id))
    .orderBy(fileTasks.kind, desc(jobs.startedAt));
  return rows.map(asTask);
}

/** Renews the task's heartbeat, with its progress when given. */
export async function heartbeat(db: Db, taskId: string, worker: string, progress?: { done: number; total: number }): Promise<void> {
  const percent = progress && progress.total > 0 ? Math.floor((progress.done * 100) / progress.total) : undefined;
  await heartbeatJob(db, taskId, worker, progress && { ...progress, percent });
}

export async function finishFileTask(db: Db, taskId: string, outcome: { summary: object } | { error: string }): Promise<void> {
  await finishJobHere(db, taskId, 'summary' in outcome ? { result: outcome.summary } : outcome, new Date());
}

/** Old finished tasks go: the newest of each kind is what a view shows. */
export async function removeOldFileTasks(db: Db, olderThan: Date): Promise<void> {
  await db.delete(jobs).where(and(inArray(jobs.kind, FILE_JOB_KINDS), lt(jobs.startedAt, olderThan), ne(jobs.status, 'running')));
}

/** Every photo the records name, with how many records name it. */
export async function photosNamedByRecords(db: Db): Promise<Array<{ hash: string; records: number }>> {
  return db
    .select({ hash: sql<string>`${inspectionLogs.imageHash}`, records: count() })
    .from(inspectionLogs)
    .where(isNotNull(inspectionLogs.imageHash))
    .groupBy(inspectionLogs.imageHash)
    .orderBy(asc(inspectionLogs.imageHash));
}

/** Blobs the app itself keeps that are not record photos: report files, and photos queued for removal. */
export async function otherKnownBlobs(db: Db): Promise<Set<string>> {
  const reportFiles = await db.select({ hash: reports.fileHash }).from(reports).where(isNotNull(reports.fileHash));
  const queued = await db.select({ hash: blobDeletions.hash }).from(blobDeletions);
  return new Set([...reportFiles.map((r) => r.hash!), ...queued.map((q) => q.hash)]);
}

export async function recordsUsingPhoto(tx: DbOrTx, hash: string): Promise<number> {
  const [row] = await tx.select({ n: count() }).from(inspectionLogs).where(eq(inspectionLogs.imageHash, hash));
  return row?.n ?? 0;
}

/** Lists the records of these photos as the check's findings. */
export async function saveProblems(db: Db, taskId: string, problems: ReadonlyMap<string, PhotoProblem>): Promise<void> {
  const byProblem = new Map<PhotoProblem, string[]>();
  for (const [hash, problem] of problems) byProblem.set(problem, [...(byProblem.get(problem) ?? []), hash]);
  for (const [problem, hashes] of byProblem) {
    for (let i = 0; i < hashes.length; i += 1000) {
      const slice = hashes.slice(i, i + 1000);
      await db.execute(sql`
        insert into ${fileTaskProblems} (task_id, record_id, image_hash, problem)
        select ${taskId}::uuid, record_id, image_hash, ${problem} from ${inspectionLogs}
        where image_hash in ${slice}
        on conflict do nothing`);
    }
  }
}

export async function problemPage(db: Db, taskId: string, page: number, pageSize: number) {
  const [total] = await db
    .select({ n: count() })
    .from(fileTaskProblems)
    .innerJoin(inspectionLogs, eq(inspectionLogs.recordId, fileTaskProblems.recordId))
    .where(eq(fileTaskProblems.taskId, taskId));
  const items = await db
    .select({
      recordId: fileTaskProblems.recordId,
      problem: sql<PhotoProblem>`${fileTaskProblems.problem}`,
      imageHash: fileTaskProblems.imageHash,
      date: inspectionLogs.date,
      type: inspectionLogs.type,
      divisionRailway: inspectionLogs.divisionRailway,
      curveNumber: inspectionLogs.curveNumber,
      technicianName: inspectionLogs.technicianName,
    })
    .from(fileTaskProblems)
    // A record deleted since the check is no longer listed.
    .innerJoin(inspectionLogs, eq(inspectionLogs.recordId, fileTaskProblems.recordId))
    .where(eq(fileTaskProblems.taskId, taskId))
    .orderBy(desc(inspectionLogs.date), asc(fileTaskProblems.recordId))
    .limit(pageSize)
    .offset((page - 1) * pageSize);
  return { items, page, pageSize, total: total?.n ?? 0 };
}
