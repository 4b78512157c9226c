/** Work done in the background: reports, backups and file tasks. */
import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid, varchar } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.js';

/**
 * Reports made for people (DESIGN section 13): what was asked, by whom, for which division,
 * and the file made (kept in the BlobStore under its sha256). `division` is the report's scope:
 * null means every division, which only non-Clients may download. `dedupeKey` names the
 * parameters and the data they were made from: the same report asked again before anything
 * changed is answered with the one already made.
 */
export const reports = pgTable(
  'reports',
  {
    id: uuid('id').primaryKey(),
    kind: varchar('kind', { length: 40 }).notNull(),
    params: jsonb('params').notNull(),
    /** What was fixed when it was asked (the records up to then, the business date), so a job made later or again makes the same file. */
    snapshot: jsonb('snapshot'),
    division: varchar('division', { length: 50 }),
    dedupeKey: varchar('dedupe_key', { length: 64 }).notNull(),
    requestedByUserId: integer('requested_by_user_id'),
    requestedByEmployeeId: varchar('requested_by_employee_id', { length: 50 }).notNull(),
    status: varchar('status', { length: 12 }).notNull().default('queued'),
    progress: integer('progress').notNull().default(0),
    recordCount: integer('record_count'),
    /** The report's own figures (e.g. serviceCount and cofCount), as the API answered them. */
    summary: jsonb('summary'),
    fileHash: varchar('file_hash', { length: 64 }),
    fileName: varchar('file_name', { length: 200 }),
    fileSizeBytes: bigint('file_size_bytes', { mode: 'number' }),
    contentType: varchar('content_type', { length: 100 }),
    error: text('error'),
    /** The instance making it now (a random ID per process); null while queued. */
    claimedBy: varchar('claimed_by', { length: 64 }),
    /** Renewed while it is made: a running job whose heartbeat stops is claimed again. */
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }),
    /** How many times a worker has started it; a job that keeps killing its worker fails. */
    attempts: integer('attempts').notNull().default(0),
    createdAt: createdAt(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    check('reports_status_ck', sql`${t.status} in ('queued', 'running', 'done', 'failed')`),
    index('reports_dedupe_idx').on(t.dedupeKey, t.createdAt.desc()),
    index('reports_expires_idx').on(t.expiresAt),
    index('reports_file_hash_idx').on(t.fileHash),
    // A user's recent reports.
    index('reports_requested_by_idx').on(t.requestedByUserId, t.createdAt.desc()),
    // The claim's turn-taking: when each requester was last served.
    index('reports_requester_started_idx').on(t.requestedByUserId, t.startedAt.desc()),
    // The workers' queue: only unfinished jobs, oldest first.
    index('reports_queue_idx').on(t.createdAt).where(sql`${t.status} in ('queued', 'running')`),
    // One unfinished job per request and data: the same report asked twice at once (a double
    // tap, two instances) is queued once.
    uniqueIndex('reports_unfinished_dedupe_uq').on(t.dedupeKey).where(sql`${t.status} in ('queued', 'running')`),
  ],
);

/**
 * Backups being made and made (server/features/backups). While a backup is under way (a row
 * with no finished_at and a fresh heartbeat) no photo file is removed, so every record in the
 * backup's database snapshot still has its photo to copy. Scheduled backups of several
 * instances claim their turn here, so one backup is made per interval, not one per instance.
 */
export const backupRuns = pgTable(
  'backup_runs',
  {
    id: uuid('id').primaryKey(),
    /** The backup's folder name under BACKUP_DIR (or wherever `npm run backup` was told). */
    name: varchar('name', { length: 100 }).notNull(),
    trigger: varchar('trigger', { length: 12 }).notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    state: varchar('state', { length: 12 }).notNull().default('running'),
    error: text('error'),
  },
  (t) => [
    check('backup_runs_state_ck', sql`${t.state} in ('running', 'done', 'failed')`),
    check('backup_runs_trigger_ck', sql`${t.trigger} in ('manual', 'scheduled')`),
    index('backup_runs_started_idx').on(t.startedAt.desc()),
  ],
);

/**
 * The Admin's file tools (status check, restore, recreate) as tasks, so a check of a large
 * store can run for minutes while the view follows its progress from any instance.
 */
export const fileTasks = pgTable(
  'file_tasks',
  {
    id: uuid('id').primaryKey(),
    kind: varchar('kind', { length: 12 }).notNull(),
    state: varchar('state', { length: 12 }).notNull().default('running'),
    requestedByEmployeeId: varchar('requested_by_employee_id', { length: 50 }).notNull(),
    progressDone: integer('progress_done').notNull().default(0),
    progressTotal: integer('progress_total').notNull().default(0),
    summary: jsonb('summary'),
    error: text('error'),
    /** Renewed while the task runs: a running task whose heartbeat stops died with its instance. */
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    check('file_tasks_kind_ck', sql`${t.kind} in ('check', 'restore', 'recreate')`),
    check('file_tasks_state_ck', sql`${t.state} in ('running', 'done', 'failed')`),
    index('file_tasks_kind_started_idx').on(t.kind, t.startedAt.desc()),
  ],
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
