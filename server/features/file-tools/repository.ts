import { randomUUID } from 'node:crypto';
import { and, asc, count, desc, eq, isNotNull, lt, sql } from 'drizzle-orm';
import type { FileTaskKind, PhotoProblem } from '../../../common/schemas/file-tools.js';
import type { Db, DbOrTx } from '../../db/client.js';
import { blobDeletions, fileTaskProblems, fileTasks, inspectionLogs, reports } from '../../db/schema.js';

export type FileTaskRow = typeof fileTasks.$inferSelect;

/** A running task whose heartbeat is older than this died with its instance. */
export const FILE_TASK_STALE_MS = 60_000;

const STOPPED = 'The server running this task stopped before it finished. Start it again.';

/** Marks tasks whose instance stopped as failed, so they are neither joined nor shown as running. */
async function failStaleTasks(tx: DbOrTx, now: Date): Promise<void> {
  await tx
    .update(fileTasks)
    .set({ state: 'failed', error: STOPPED, finishedAt: now })
    .where(and(eq(fileTasks.state, 'running'), lt(fileTasks.heartbeatAt, new Date(now.getTime() - FILE_TASK_STALE_MS))));
}

/** The running task of this kind, or a new one: two Admins pressing the button run one task. */
export async function claimFileTask(db: Db, kind: FileTaskKind, employeeId: string, now: Date): Promise<{ task: FileTaskRow; isNew: boolean }> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`lock table ${fileTasks} in share row exclusive mode`);
    await failStaleTasks(tx, now);
    const [running] = await tx
      .select()
      .from(fileTasks)
      .where(and(eq(fileTasks.kind, kind), eq(fileTasks.state, 'running')))
      .limit(1);
    if (running) return { task: running, isNew: false };
    const [task] = await tx
      .insert(fileTasks)
      .values({ id: randomUUID(), kind, requestedByEmployeeId: employeeId, startedAt: now, heartbeatAt: now })
      .returning();
    return { task: task!, isNew: true };
  });
}

export async function findFileTask(db: Db, taskId: string, now: Date): Promise<FileTaskRow | undefined> {
  const [row] = await db.select().from(fileTasks).where(eq(fileTasks.id, taskId));
  if (row?.state === 'running' && row.heartbeatAt.getTime() < now.getTime() - FILE_TASK_STALE_MS) {
    await failStaleTasks(db, now);
    return (await db.select().from(fileTasks).where(eq(fileTasks.id, taskId)))[0];
  }
  return row;
}

/** The newest task of each kind, so a view opened later finds a task still running or its result. */
export async function latestFileTasks(db: Db, now: Date): Promise<FileTaskRow[]> {
  await failStaleTasks(db, now);
  const rows = await db
    .selectDistinctOn([fileTasks.kind])
    .from(fileTasks)
    .orderBy(fileTasks.kind, desc(fileTasks.startedAt));
  return rows;
}

export async function heartbeat(db: Db, taskId: string): Promise<void> {
  await db.update(fileTasks).set({ heartbeatAt: new Date() }).where(and(eq(fileTasks.id, taskId), eq(fileTasks.state, 'running')));
}

export async function reportProgress(db: Db, taskId: string, done: number, total: number): Promise<void> {
  await db.update(fileTasks).set({ progressDone: done, progressTotal: total, heartbeatAt: new Date() }).where(eq(fileTasks.id, taskId));
}

export async function finishFileTask(db: Db, taskId: string, outcome: { summary: object } | { error: string }): Promise<void> {
  await db
    .update(fileTasks)
    .set({
      state: 'summary' in outcome ? 'done' : 'failed',
      summary: 'summary' in outcome ? outcome.summary : null,
      error: 'error' in outcome ? outcome.error : null,
      finishedAt: new Date(),
      heartbeatAt: new Date(),
    })
    .where(eq(fileTasks.id, taskId));
}

/** Old finished tasks go: the newest of each kind is what a view shows. */
export async function removeOldFileTasks(db: Db, olderThan: Date): Promise<void> {
  await db.delete(fileTasks).where(and(lt(fileTasks.startedAt, olderThan), sql`${fileTasks.state} <> 'running'`));
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
