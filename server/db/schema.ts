/**
 * Drizzle tables: the original app's nine entities, plus sessions, audit_log and
 * login_throttle. One schema and one migration history serve PGlite and PostgreSQL alike.
 * Column names are snake_case in SQL and camelCase in TypeScript, as the spec names them.
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  varchar,
} from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
// Every update through Drizzle stamps updated_at: list caches use it to know a table changed.
const updatedAt = () =>
  timestamp('updated_at', { withTimezone: true })
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date());

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    employeeId: varchar('employee_id', { length: 50 }).notNull(),
    name: varchar('name', { length: 100 }).notNull(),
    role: varchar('role', { length: 20 }).notNull().default('Technician'),
    phone: varchar('phone', { length: 20 }),
    /** argon2id hash; the spec's `password` field. Never leaves the server. */
    passwordHash: text('password_hash').notNull(),
    divisionAccess: varchar('division_access', { length: 50 }),
    /**
     * Set when someone else chose the password (an Admin adding the user with their phone, or a
     * reset): until the user picks their own, the server answers every call but me, logout and
     * change-password with PASSWORD_CHANGE_REQUIRED.
     */
    mustChangePassword: boolean('must_change_password').notNull().default(false),
    /**
     * Made by the demo seed, with the published demo password: signs in only while demo mode is
     * on. A marker, not a name pattern, so a real account is never taken for one.
     */
    isDemo: boolean('is_demo').notNull().default(false),
    /** Set while the account is switched off: no sign-in, no session; records keep the name. */
    deactivatedAt: timestamp('deactivated_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // Employee IDs are matched case-insensitively at sign-in, so uniqueness is too.
    uniqueIndex('users_employee_id_lower_uq').on(sql`lower(${t.employeeId})`),
    check('users_role_ck', sql`${t.role} in ('Technician', 'Admin', 'Client')`),
    // Plain IDs only (common/rules/employee-id.ts), so lower() here and in JavaScript agree.
    // Migration 0009 adds it NOT VALID: rows made before the rule are left as they were.
    check('users_employee_id_plain_ck', sql`${t.employeeId} ~ '^[A-Za-z0-9._-]+$'`),
  ],
);

export const sessions = pgTable(
  'sessions',
  {
    /** sha256 of the cookie token: a leaked table does not yield usable sessions. */
    id: varchar('id', { length: 64 }).primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    userAgent: varchar('user_agent', { length: 300 }),
    ipAddress: varchar('ip_address', { length: 64 }),
  },
  (t) => [index('sessions_user_idx').on(t.userId), index('sessions_expires_idx').on(t.expiresAt)],
);

export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    actorUserId: integer('actor_user_id'),
    actorEmployeeId: varchar('actor_employee_id', { length: 50 }),
    action: varchar('action', { length: 50 }).notNull(),
    entity: varchar('entity', { length: 50 }).notNull(),
    entityId: varchar('entity_id', { length: 200 }),
    before: jsonb('before'),
    after: jsonb('after'),
    requestId: varchar('request_id', { length: 64 }),
  },
  (t) => [index('audit_log_at_idx').on(t.at), index('audit_log_entity_idx').on(t.entity, t.entityId)],
);

/**
 * Sign-in attempts per key (an employee ID, an address, a trusted device), shared by all
 * instances (server/features/auth/login-throttle.ts). An attempt takes a slot (`pending`) before
 * its password is checked; `blockedUntil` is when the key may try again.
 */
export const loginThrottle = pgTable(
  'login_throttle',
  {
    key: varchar('key', { length: 200 }).primaryKey(),
    windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
    failures: integer('failures').notNull(),
    lastFailureAt: timestamp('last_failure_at', { withTimezone: true }).notNull().defaultNow(),
    blockedUntil: timestamp('blocked_until', { withTimezone: true }),
    /** Attempts under way (their passwords being checked), and when the latest one began. */
    pending: integer('pending').notNull().default(0),
    pendingSince: timestamp('pending_since', { withTimezone: true }),
  },
  (t) => [index('login_throttle_last_failure_idx').on(t.lastFailureAt)],
);

/**
 * Browsers a user has signed in from (OWASP's device cookies): a sign-in from one of them is
 * throttled by its own count, not the employee ID's, so a stranger typing an Admin's ID cannot
 * keep that Admin out. The cookie carries the token; the table keeps only its sha256.
 */
export const trustedDevices = pgTable(
  'trusted_devices',
  {
    tokenHash: varchar('token_hash', { length: 64 }).primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('trusted_devices_user_idx').on(t.userId, t.lastUsedAt.desc()), index('trusted_devices_expires_idx').on(t.expiresAt)],
);

export const inspectionLogs = pgTable(
  'inspection_logs',
  {
    id: serial('id').primaryKey(),
    recordId: varchar('record_id', { length: 64 }).notNull().unique(),
    /** Client-generated UUID: the same submission sent twice stores one record. */
    clientSubmissionId: uuid('client_submission_id').unique(),
    /** The device's local date of the visit, YYYY-MM-DD. */
    date: date('date', { mode: 'string' }).notNull(),
    type: varchar('type', { length: 10 }).notNull(),
    divisionRailway: varchar('division_railway', { length: 50 }).notNull(),
    section: varchar('section', { length: 100 }).notNull(),
    curveNumber: varchar('curve_number', { length: 50 }).notNull(),
    line: varchar('line', { length: 10 }).notNull(),
    technicianId: varchar('technician_id', { length: 50 }).notNull(),
    technicianName: varchar('technician_name', { length: 100 }).notNull(),
    cofValue: numeric('cof_value', { precision: 3, scale: 2 }),
    location: varchar('location', { length: 20 }),
    station1: varchar('station1', { length: 100 }),
    station2: varchar('station2', { length: 100 }),
    km: varchar('km', { length: 20 }),
    pole1: varchar('pole1', { length: 20 }),
    pole2: varchar('pole2', { length: 20 }),
    railwayEngineer: varchar('railway_engineer', { length: 150 }),
    imageUrl: text('image_url'),
    fileName: varchar('file_name', { length: 255 }),
    /** sha256 of the photo bytes, which is also its BlobStore key. */
    imageHash: varchar('image_hash', { length: 64 }),
    imageSizeBytes: integer('image_size_bytes'),
    imageWidth: integer('image_width'),
    imageHeight: integer('image_height'),
    /**
     * The photo's full decode, done once after the commit by a background worker (docs/architecture.md,
     * 'How an upload and a photo flow'): 'pending' until then, 'ready' when it decoded and its thumbnail and print copy
     * exist, 'undecodable' when its header passed but its pixels could not be read (flagged in
     * the records view).
     */
    photoState: varchar('photo_state', { length: 12 }).notNull().default('ready'),
    /** Kept for the spec's shape; photos live in the BlobStore, so this stays empty. */
    imageData: text('image_data'),
    serviceUpdate: varchar('service_update', { length: 20 }),
    partCategory: varchar('part_category', { length: 100 }),
    partItemName: varchar('part_item_name', { length: 200 }),
    isMachineWorking: boolean('is_machine_working'),
    /** The spec says int, but depth is entered 0-10 in 0.1 steps: an int would drop the decimal. */
    greaseDepth: numeric('grease_depth', { precision: 3, scale: 1 }),
    greaseWeight: integer('grease_weight'),
    latitude: doublePrecision('latitude'),
    longitude: doublePrecision('longitude'),
    locationAccuracyM: doublePrecision('location_accuracy_m'),
    submittedAt: timestamp('submitted_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('inspection_logs_type_ck', sql`${t.type} in ('Service', 'CoF')`),
    check('inspection_logs_line_ck', sql`${t.line} in ('Up', 'Down', 'Single')`),
    check('inspection_logs_photo_state_ck', sql`${t.photoState} in ('pending', 'ready', 'undecodable')`),
    // The photo worker's queue: the few records whose photo is not decoded yet.
    index('inspection_logs_photo_pending_idx').on(t.submittedAt).where(sql`${t.photoState} = 'pending'`),
    index('inspection_logs_submitted_idx').on(t.submittedAt.desc(), t.id.desc()),
    index('inspection_logs_date_idx').on(t.date),
    index('inspection_logs_type_date_idx').on(t.type, t.date),
    index('inspection_logs_division_date_idx').on(t.divisionRailway, t.date),
    index('inspection_logs_technician_date_idx').on(t.technicianId, t.date),
    // The records view pages newest first within a division or a technician's records.
    index('inspection_logs_division_submitted_idx').on(t.divisionRailway, t.submittedAt.desc(), t.id.desc()),
    index('inspection_logs_technician_submitted_idx').on(t.technicianId, t.submittedAt.desc(), t.id.desc()),
    // The schedule's two look-ups per curve: its last Service and its last CoF (migration 0003).
    // Within the curve's own division (migration 0009): an index probe that stops at the first row.
    index('inspection_logs_curve_type_division_date_idx').on(
      t.section,
      t.curveNumber,
      t.line,
      t.type,
      t.divisionRailway,
      t.date.desc(),
      t.submittedAt.desc(),
      t.id.desc(),
    ),
    index('inspection_logs_image_hash_idx').on(t.imageHash),
  ],
);

/**
 * Photos whose last record was deleted, waiting for their file to be removed. A deletion
 * queues the hash in the same transaction that deletes the rows; the file goes afterwards, under
 * a lock on the hash that uploads of the same bytes also take. A crash or a failing disk in
 * between leaves the hash queued (retried at start and periodically), never a row without
 * its photo.
 */
export const blobDeletions = pgTable('blob_deletions', {
  hash: varchar('hash', { length: 64 }).primaryKey(),
  queuedAt: timestamp('queued_at', { withTimezone: true }).notNull().defaultNow(),
  attempts: integer('attempts').notNull().default(0),
  lastError: text('last_error'),
});

/**
 * A version per table, bumped by a statement trigger on every write (migration 0001), inside
 * the writing transaction. Caches of counts compare it: one primary-key read tells whether
 * any instance changed the table.
 */
export const changeCounters = pgTable('change_counters', {
  tableName: varchar('table_name', { length: 64 }).primaryKey(),
  version: bigint('version', { mode: 'number' }).notNull().default(0),
});

export const consolidatedCurveDetails = pgTable(
  'consolidated_curve_details',
  {
    id: serial('id').primaryKey(),
    no: integer('no').notNull(),
    hkmCode: integer('hkm_code').unique(),
    divisionRailway: varchar('division_railway', { length: 50 }).notNull(),
    section: varchar('section', { length: 100 }).notNull(),
    curveNumber: varchar('curve_number', { length: 50 }).notNull(),
    line: varchar('line', { length: 10 }).notNull(),
    kmFrom: integer('km_from'),
    metFrom: integer('met_from'),
    kmTo: integer('km_to'),
    metTo: integer('met_to'),
    /** Curve length in metres. */
    length: integer('length'),
    station1: varchar('station1', { length: 100 }),
    station2: varchar('station2', { length: 100 }),
    degree: numeric('degree', { precision: 5, scale: 2 }),
    den: varchar('den', { length: 100 }),
    aen: varchar('aen', { length: 150 }),
    sse: varchar('sse', { length: 150 }),
    comments: text('comments'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // The spec edits and deletes a curve by (section, curveNumber, line): that is its key.
    uniqueIndex('curves_section_number_line_uq').on(t.section, t.curveNumber, t.line),
    // The register's order (division, section, No.): lists, filters and the export's batches.
    index('curves_register_order_idx').on(t.divisionRailway, t.section, t.no, t.id),
  ],
);

export const machineDashboardSummary = pgTable('machine_dashboard_summary', {
  id: serial('id').primaryKey(),
  division: varchar('division', { length: 50 }).notNull().unique(),
  scope: integer('scope').notNull().default(0),
  foundationCompleted: integer('foundation_completed').notNull().default(0),
  machinesInstalled: integer('machines_installed').notNull().default(0),
  machinesCommissioned: integer('machines_commissioned').notNull().default(0),
  updatedAt: updatedAt(),
});

export const stations = pgTable(
  'stations',
  {
    id: serial('id').primaryKey(),
    no: integer('no').notNull(),
    stationName: varchar('station_name', { length: 100 }).notNull(),
    stationCode: varchar('station_code', { length: 20 }).notNull(),
    section: varchar('section', { length: 100 }).notNull(),
    divisionRailway: varchar('division_railway', { length: 50 }).notNull(),
  },
  (t) => [
    // A station is known by its code within its section: imports upsert by that key.
    uniqueIndex('stations_section_code_uq').on(t.section, t.stationCode),
    index('stations_section_idx').on(t.section, t.no),
    index('stations_register_order_idx').on(t.divisionRailway, t.section, t.no, t.id),
  ],
);

export const machineParts = pgTable(
  'machine_parts',
  {
    id: serial('id').primaryKey(),
    no: integer('no').notNull(),
    category: varchar('category', { length: 100 }).notNull(),
    itemName: varchar('item_name', { length: 200 }).notNull(),
  },
  (t) => [uniqueIndex('machine_parts_category_item_uq').on(t.category, t.itemName)],
);

export const machineDetails = pgTable(
  'machine_details',
  {
    id: serial('id').primaryKey(),
    jurisdiction: varchar('jurisdiction', { length: 200 }).notNull(),
    level: varchar('level', { length: 10 }).notNull(),
    parentJurisdiction: varchar('parent_jurisdiction', { length: 200 }),
    curveCount: integer('curve_count').notNull().default(0),
    foundationCompleted: integer('foundation_completed').notNull().default(0),
    machinesInstalled: integer('machines_installed').notNull().default(0),
    machinesCommissioned: integer('machines_commissioned').notNull().default(0),
    foundationCompletedDate: timestamp('foundation_completed_date', { withTimezone: true }),
    machinesInstalledDate: timestamp('machines_installed_date', { withTimezone: true }),
    machinesCommissionedDate: timestamp('machines_commissioned_date', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('machine_details_parent_idx').on(t.parentJurisdiction, t.level)],
);

export const curveRecords = pgTable(
  'curve_records',
  {
    id: serial('id').primaryKey(),
    no: integer('no').notNull(),
    phase: varchar('phase', { length: 10 }),
    divisionRailway: varchar('division_railway', { length: 50 }).notNull(),
    section: varchar('section', { length: 100 }).notNull(),
    curveNumber: varchar('curve_number', { length: 50 }).notNull(),
    line: varchar('line', { length: 10 }).notNull(),
    den: varchar('den', { length: 100 }),
    aen: varchar('aen', { length: 150 }),
    sse: varchar('sse', { length: 150 }),
    foundationActual: varchar('foundation_actual', { length: 20 }),
    machineActual: varchar('machine_actual', { length: 20 }),
    commissioned: varchar('commissioned', { length: 20 }),
    createdAt: createdAt(),
  },
  (t) => [
    index('curve_records_division_section_idx').on(t.divisionRailway, t.section),
    index('curve_records_den_aen_idx').on(t.den, t.aen),
  ],
);

export const hkmControllerMapping = pgTable('hkm_controller_mapping', {
  id: serial('id').primaryKey(),
  hkmCode: integer('hkm_code').notNull().unique(),
  controllerNumber: integer('controller_number').notNull(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/**
 * Reports made for people (docs/architecture.md, 'Reports'): what was asked, by whom, for which division,
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

export type UserRow = typeof users.$inferSelect;
export type NewUserRow = typeof users.$inferInsert;
export type InspectionRow = typeof inspectionLogs.$inferSelect;
export type CurveRow = typeof consolidatedCurveDetails.$inferSelect;
export type StationRow = typeof stations.$inferSelect;

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
