/**
 * Work done in the background (server/jobs): one `jobs` table holds every job's place in the
 * queue (status, claim, heartbeat, attempts, progress, expiry); each feature's own table keeps
 * only its domain record, under the job's ID: reports, backup runs and file tasks.
 */
import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid, varchar } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.js';

export const jobs = pgTable(
  'jobs',
  {
    id: uuid('id').primaryKey(),
    /** Which handler makes it: `report.<report kind>`, `files.<task kind>`, `backup`. */
    kind: varchar('kind', { length: 60 }).notNull(),
    /** The user it is made for: their unfinished jobs count against their cap, and users take turns. */
    ownerUserId: integer('owner_user_id'),
    status: varchar('status', { length: 12 }).notNull().default('queued'),
    /** At most one unfinished job per key: the same request twice (any instance) is one job. */
    uniqueKey: varchar('unique_key', { length: 100 }),
    /** How many times a worker has started it; a job that keeps killing its worker fails. */
    attempts: integer('attempts').notNull().default(0),
    /** Share done, 0-100. */
    progress: integer('progress').notNull().default(0),
    /** Items done of items to do, for jobs that count what they go through. */
    progressDone: integer('progress_done').notNull().default(0),
    progressTotal: integer('progress_total').notNull().default(0),
    /** The instance making it now (a random ID per process); null while queued. */
    claimedBy: varchar('claimed_by', { length: 64 }),
    /** Renewed while it is made: a running job whose heartbeat stops is claimed again or failed. */
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }),
    /** What a finished job found, as its API answers it. */
    result: jsonb('result'),
    error: text('error'),
    createdAt: createdAt(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    /** After this it is never claimed, and the retention sweep removes it; null: kept. */
    expiresAt: timestamp('expires_at', { withTimezone: true }),
  },
  (t) => [
    check('jobs_status_ck', sql`${t.status} in ('queued', 'running', 'done', 'failed')`),
    // The workers' queue: only unfinished jobs, oldest first.
    index('jobs_queue_idx').on(t.createdAt).where(sql`${t.status} in ('queued', 'running')`),
    // A user's recent jobs, and the claim's turn-taking (when each owner was last served).
    index('jobs_owner_created_idx').on(t.ownerUserId, t.createdAt.desc()),
    index('jobs_owner_started_idx').on(t.ownerUserId, t.startedAt.desc()),
    index('jobs_kind_started_idx').on(t.kind, t.startedAt.desc()),
    index('jobs_expires_idx').on(t.expiresAt),
    uniqueIndex('jobs_unfinished_unique_key_uq').on(t.uniqueKey).where(sql`${t.status} in ('queued', 'running')`),
  ],
);

/** A domain record's ID is its job's: removing the job removes the record. */
const jobId = () =>
  uuid('id')
    .primaryKey()
    .references(() => jobs.id, { onDelete: 'cascade' });

/**
 * Reports made for people: what was asked, by whom, for which division, and the file made
 * (kept in the BlobStore under its sha256). `division` is the report's scope: null means every
 * division, which only non-Clients may download. `dedupeKey` names the parameters and the data
 * they were made from: the same report asked again before anything changed is answered with
 * the one already made (the job's unique key while unfinished).
 */
export const reports = pgTable(
  'reports',
  {
    id: jobId(),
    kind: varchar('kind', { length: 40 }).notNull(),
    params: jsonb('params').notNull(),
    /** What was fixed when it was asked (the records up to then, the business date), so a job made later or again makes the same file. */
    snapshot: jsonb('snapshot'),
    division: varchar('division', { length: 50 }),
    dedupeKey: varchar('dedupe_key', { length: 64 }).notNull(),
    requestedByEmployeeId: varchar('requested_by_employee_id', { length: 50 }).notNull(),
    recordCount: integer('record_count'),
    /** The report's own figures (e.g. serviceCount and cofCount), as the API answered them. */
    summary: jsonb('summary'),
    fileHash: varchar('file_hash', { length: 64 }),
    fileName: varchar('file_name', { length: 200 }),
    fileSizeBytes: bigint('file_size_bytes', { mode: 'number' }),
    contentType: varchar('content_type', { length: 100 }),
  },
  (t) => [index('reports_dedupe_idx').on(t.dedupeKey), index('reports_file_hash_idx').on(t.fileHash)],
);

/**
 * Backups being made and made (server/features/backups). While a backup is under way (its
 * job running with a fresh heartbeat) no photo file is removed, so every record in the
 * backup's database snapshot still has its photo to copy. Scheduled backups of several
 * instances claim their turn through the job's unique key, so one backup is made per
 * interval, not one per instance.
 */
export const backupRuns = pgTable(
  'backup_runs',
  {
    id: jobId(),
    /** The backup's folder name under BACKUP_DIR (or wherever `npm run backup` was told). */
    name: varchar('name', { length: 100 }).notNull(),
    trigger: varchar('trigger', { length: 12 }).notNull(),
  },
  (t) => [check('backup_runs_trigger_ck', sql`${t.trigger} in ('manual', 'scheduled')`)],
);

/**
 * The Admin's file tools (status check, restore, recreate) as jobs, so a check of a large
 * store can run for minutes while the view follows its progress from any instance.
 */
export const fileTasks = pgTable(
  'file_tasks',
  {
    id: jobId(),
    kind: varchar('kind', { length: 12 }).notNull(),
    requestedByEmployeeId: varchar('requested_by_employee_id', { length: 50 }).notNull(),
  },
  (t) => [check('file_tasks_kind_ck', sql`${t.kind} in ('check', 'restore', 'recreate')`)],
);

/** The records a status check found with a missing or corrupt photo, paged by the view. */
export const fileTaskProblems = pgTable(
  'file_task_problems',
  {
    taskId: uuid('task_id')
      .notNull()
      .references(() => fileTasks.id, { onDelete: 'cascade' }),
    recordId: varchar('record_id', { length: 100 }).notNull(),
    imageHash: varchar('image_hash', { length: 64 }).notNull(),
    problem: varchar('problem', { length: 12 }).notNull(),
  },
  (t) => [uniqueIndex('file_task_problems_pk').on(t.taskId, t.recordId)],
);
