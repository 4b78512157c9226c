/**
 * The facts the metrics read from the database at each scrape: the ones several instances
 * share (the job queue, the photos waiting for their decode, the last backup), so any instance
 * Prometheus asks answers the same, whichever made the job or the backup. Ages are measured
 * by the database's clock, the same for every instance. Each query runs on an index that
 * holds only its rows (jobs_queue_idx, inspection_logs_photo_pending_idx, jobs_kind_started_idx).
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { BACKUP_JOB } from '../backups/index.js';

export interface UnfinishedJobs {
  kind: string;
  status: 'queued' | 'running';
  count: number;
  oldestAgeSeconds: number;
}

export interface PendingPhotos {
  count: number;
  /** null when none is pending. */
  oldestAgeSeconds: number | null;
}

export interface LastBackup {
  finishedAtSeconds: number;
  durationSeconds: number;
}

type Rows<T> = { rows: T[] };

export async function unfinishedJobs(db: Db): Promise<UnfinishedJobs[]> {
  const result = (await db.execute(sql`
    select kind, status, count(*)::int as count, extract(epoch from (now() - min(created_at)))::float8 as oldest
    from jobs where status in ('queued', 'running') group by kind, status`)) as unknown as Rows<{ kind: string; status: string; count: number; oldest: number }>;
  return result.rows.map((row) => ({
    kind: row.kind,
    status: row.status === 'running' ? 'running' : 'queued',
    count: Number(row.count),
    oldestAgeSeconds: Math.max(0, Number(row.oldest)),
  }));
}

export async function pendingPhotos(db: Db): Promise<PendingPhotos> {
  const result = (await db.execute(sql`
    select count(*)::int as count, extract(epoch from (now() - min(submitted_at)))::float8 as oldest
    from inspection_logs where photo_state = 'pending'`)) as unknown as Rows<{ count: number; oldest: number | null }>;
  const row = result.rows[0];
  return { count: Number(row?.count ?? 0), oldestAgeSeconds: row?.oldest === null || row?.oldest === undefined ? null : Math.max(0, Number(row.oldest)) };
}

/** The newest backup that finished well, whoever made it (an instance's schedule, `npm run backup`). */
export async function lastSuccessfulBackup(db: Db): Promise<LastBackup | null> {
  const result = (await db.execute(sql`
    select extract(epoch from finished_at)::float8 as finished, extract(epoch from (finished_at - started_at))::float8 as seconds
    from jobs where kind = ${BACKUP_JOB} and status = 'done' and finished_at is not null
    order by started_at desc limit 1`)) as unknown as Rows<{ finished: number; seconds: number | null }>;
  const row = result.rows[0];
  return row ? { finishedAtSeconds: Number(row.finished), durationSeconds: Math.max(0, Number(row.seconds ?? 0)) } : null;
}
