/** The technicians' inspection records, the photos waiting to be removed, and the per-table change counters. */
import { sql } from 'drizzle-orm';
import { bigint, boolean, check, date, doublePrecision, index, integer, numeric, pgTable, pgView, primaryKey, serial, text, timestamp, uuid, varchar } from 'drizzle-orm/pg-core';

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
 * the writing transaction. Caches of counts compare it: one read tells whether any instance
 * changed the table. Every backed-up table has one (migration 0014): a backup on PGlite reads
 * tables in chunks and reads again those whose version moved meanwhile.
 *
 * A table's version is the sum of its shards (migration 0015). With a single row per table,
 * every writing transaction held that row's lock from its first write to its commit, so
 * concurrent uploads passed through it one at a time (about 15 ms each on PostgreSQL). Now a
 * write bumps a shard no other open transaction holds, adding one when all are held, so a
 * table has about as many shards as it had writers at once. A shard only rises, so the sum
 * only rises, and a committed write always moves it.
 */
export const changeCounterShards = pgTable(
  'change_counter_shards',
  {
    tableName: varchar('table_name', { length: 64 }).notNull(),
    /** 0 for the version before sharding, else the process id of the connection that added it. */
    shard: integer('shard').notNull(),
    version: bigint('version', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.tableName, t.shard] })],
);

/** Each table's version: the sum of its shards (a view, so every reader, old or new, sums). */
export const changeCounters = pgView('change_counters', {
  tableName: varchar('table_name', { length: 64 }).notNull(),
  version: bigint('version', { mode: 'number' }).notNull(),
}).as(sql`select "table_name", sum("version")::bigint as "version" from "change_counter_shards" group by "table_name"`);

export type InspectionRow = typeof inspectionLogs.$inferSelect;
