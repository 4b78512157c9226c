import { randomInt } from 'node:crypto';
import { dateInTimeZone } from '../../../common/rules/dates.js';
import { divisionScope } from '../../../common/rules/division-scope.js';
import type { PublicUser } from '../../../common/schemas/auth.js';
import { inspectionListResponseSchema, type InspectionListQuery, type UploadMetadata, type UploadResponse } from '../../../common/schemas/inspection.js';
import { AppError } from '../../app-error.js';
import type { Db, DbOrTx } from '../../db/client.js';
import type { InspectionRow } from '../../db/schema.js';
import type { BlobStore, StagedBlob } from '../../storage/blob-store.js';
import { CONTENT_TYPES, type CheckedPhoto, EXTENSIONS, formatOf } from './photo.js';
import type { PhotoWorker } from './photo-worker.js';
import { type Actor, recordAudits } from '../../audit/index.js';
import { readTableVersions, VersionedCache } from '../../db/versioned-cache.js';
import { JsonBody } from '../../json-body.js';
import { lockPhoto, queuePhotoRemoval, type PhotoFiles } from './photo-files.js';
import { imageUrlOf, toInspectionLog } from './presenter.js';
import {
  countInspections,
  deleteInspectionsByRecordIds,
  findInspectionByRecordId,
  findInspectionBySubmissionId,
  findInspectionsByRecordIds,
  insertInspection,
  listInspectionPage,
  type InspectionFilter,
  type NewInspectionRow,
} from './repository.js';
import { derivedPhoto, THUMBNAIL } from './photo-variants.js';

/**
 * What follows from a record (the follow-up actions), told inside the transaction that stores
 * or deletes it, so a record and what follows from it stand or fall together.
 */
export interface RecordFollowUps {
  visitStored(tx: DbOrTx, row: InspectionRow): Promise<void>;
  recordsDeleted(tx: DbOrTx, rows: readonly InspectionRow[], actor: Actor): Promise<void>;
}

export interface InspectionDeps {
  db: Db;
  blobs: BlobStore;
  photoFiles: PhotoFiles;
  photoWorker: PhotoWorker;
  appTimeZone: string;
  followUps: RecordFollowUps;
}

export type { Actor } from '../../audit/index.js';

/** An upload's photo as the route received it: written and hashed, its header checked. */
export interface ReceivedPhoto {
  staged: StagedBlob;
  checked: CheckedPhoto;
}

/** A record's photo, ready to stream. */
export interface PhotoFile {
  recordId: string;
  fileName: string;
  hash: string;
  size: number;
  contentType: string;
  /** When the record was stored: the photo's date inside a zip. */
  takenAt: Date;
}

const RECORD_ID_ALPHABET = '0123456789ABCDEFGHJKLMNPQRSTUVWXYZ';

/** INS-20261121-7KQ2XM: the visit's date for people, six random characters for uniqueness. */
function newRecordId(date: string): string {
  let suffix = '';
  for (let i = 0; i < 6; i++) suffix += RECORD_ID_ALPHABET[randomInt(RECORD_ID_ALPHABET.length)];
  return `INS-${date.replaceAll('-', '')}-${suffix}`;
}

function uploadAnswer(row: InspectionRow, duplicate: boolean): UploadResponse {
  return {
    recordId: row.recordId,
    fileName: row.fileName ?? '',
    imageUrl: row.imageUrl ?? imageUrlOf(row.recordId),
    imageHash: row.imageHash ?? '',
    imageSizeBytes: row.imageSizeBytes ?? 0,
    imageWidth: row.imageWidth ?? 0,
    imageHeight: row.imageHeight ?? 0,
    duplicate,
  };
}

/** Admins see every record; Clients their division's; Technicians their own. */
function canSee(user: PublicUser, row: InspectionRow): boolean {
  if (user.role === 'Admin') return true;
  if (user.role === 'Client') return user.divisionAccess !== null && row.divisionRailway === user.divisionAccess;
  return row.technicianId === user.employeeId;
}

export function createInspectionService(deps: InspectionDeps) {
  const { db, blobs } = deps;

  /** A replay of a stored submission answers the first record, if it is the same technician's. */
  function replayOf(existing: InspectionRow, user: PublicUser): UploadResponse {
    if (existing.technicianId !== user.employeeId) {
      throw new AppError('CONFLICT', 'This clientSubmissionId belongs to another record');
    }
    return uploadAnswer(existing, true);
  }

  /** The date rule: a phone's clock may run a little ahead of the railway's; a day later than that is a mistake. */
  function refuseFutureDate(metadata: UploadMetadata): void {
    const tomorrow = dateInTimeZone(new Date(Date.now() + 86_400_000), deps.appTimeZone);
    if (metadata.date > tomorrow) {
      const today = dateInTimeZone(new Date(), deps.appTimeZone);
      throw new AppError('VALIDATION_FAILED', `date: Date ${metadata.date} is in the future (today is ${today})`, {
        fields: { date: 'Date is in the future' },
      });
    }
  }

  /**
   * What is decided from the metadata alone, before any photo byte is stored: the date rule,
   * and a replay (the phone sending again a submission whose answer it did not get) answered
   * with the record already stored. Null when the submission is new.
   */
  async function admit(user: PublicUser, metadata: UploadMetadata): Promise<UploadResponse | null> {
    refuseFutureDate(metadata);
    const earlier = await findInspectionBySubmissionId(db, metadata.clientSubmissionId);
    return earlier ? replayOf(earlier, user) : null;
  }

  /**
   * Stores a new record for a photo the route has staged (written, hashed, its header checked;
   * not yet named in the store), after admit() has passed its metadata. The photo is named
   * under its hash, under the hash's lock, in the transaction that writes the row; its decode
   * and derived files follow after the commit, in the photo worker. A replay that arrived since
   * admit() is settled by the insert (one row per clientSubmissionId). The caller discards the
   * staged bytes if they were not committed.
   */
  async function upload(user: PublicUser, metadata: UploadMetadata, photo: ReceivedPhoto): Promise<UploadResponse> {
    refuseFutureDate(metadata);
    const { staged, checked } = photo;
    if (metadata.photoSha256 !== undefined && metadata.photoSha256 !== staged.hash) {
      throw new AppError(
        'PHOTO_HASH_MISMATCH',
        `The photo was damaged on the way: its sha256 is ${staged.hash}, the metadata says ${metadata.photoSha256}. Please send it again`,
        { fields: { file: 'The photo does not match its sha256' } },
      );
    }
    const recordId = newRecordId(metadata.date);
    const fileName = `inspection_${recordId}.${EXTENSIONS[checked.format]}`;
    const isService = metadata.type === 'Service';
    const row: NewInspectionRow = {
      recordId,
      clientSubmissionId: metadata.clientSubmissionId,
      date: metadata.date,
      type: metadata.type,
      divisionRailway: metadata.divisionRailway,
      section: metadata.section,
      curveNumber: metadata.curveNumber,
      line: metadata.line,
      // Who did the work comes from the session, never from what the client claims.
      technicianId: user.employeeId,
      technicianName: user.name,
      cofValue: metadata.type === 'CoF' ? metadata.cofValue : null,
      location: metadata.type === 'CoF' ? metadata.location : null,
      station1: metadata.station1,
      station2: metadata.station2,
      km: metadata.type === 'CoF' ? metadata.km : null,
      pole1: metadata.type === 'CoF' ? metadata.pole1 : null,
      pole2: metadata.type === 'CoF' ? metadata.pole2 : null,
      railwayEngineer: metadata.railwayEngineer,
      imageUrl: imageUrlOf(recordId),
      fileName,
      imageHash: staged.hash,
      imageSizeBytes: staged.sizeBytes,
      imageWidth: checked.width,
      imageHeight: checked.height,
      photoState: 'pending',
      imageData: null,
      serviceUpdate: isService ? metadata.serviceUpdate : null,
      partCategory: isService ? metadata.partCategory : null,
      partItemName: isService ? metadata.partItemName : null,
      isMachineWorking: isService ? metadata.isMachineWorking : null,
      greaseDepth: isService && metadata.greaseDepth !== null ? metadata.greaseDepth.toFixed(1) : null,
      latitude: metadata.latitude,
      longitude: metadata.longitude,
      locationAccuracyM: metadata.accuracy,
    };
    try {
      const created = await db.transaction(async (tx) => {
        // Under the lock no deletion can remove these bytes' file between its naming and the
        // row that uses it. The file is flushed already; naming it flushes its folder.
        await lockPhoto(tx, staged.hash);
        await staged.commit();
        const stored = await insertInspection(tx, row);
        // A replay inserts nothing, so it adds nothing to the actions either.
        if (stored) await deps.followUps.visitStored(tx, stored);
        return stored;
      });
      if (created) {
        deps.photoWorker.enqueue(staged.hash);
        return uploadAnswer(created, false);
      }
    } catch (error) {
      // No orphan photo: remove the file unless another record uses the same bytes.
      await deps.photoFiles.removeIfUnused(staged.hash).catch(() => undefined);
      throw error;
    }
    // Two tries of one submission raced and the other stored first: answer that one.
    await deps.photoFiles.removeIfUnused(staged.hash);
    const winner = await findInspectionBySubmissionId(db, metadata.clientSubmissionId);
    if (!winner) throw new Error('insert skipped but no record holds the clientSubmissionId');
    return replayOf(winner, user);
  }

  /** Totals per filter, recounted only after a write to inspection_logs (by any instance). */
  const totals = new VersionedCache<number>({ maxEntries: 2000 });
  /**
   * Pages as sent (JSON bytes), reused until the next write: building a page costs more in
   * Node (50 rows parsed, validated, serialized) than the indexed query costs the database.
   */
  const pages = new VersionedCache<JsonBody>({ maxEntries: 1000, maxWeight: 32 * 1024 * 1024, weigh: (page) => page.json.length });

  /** The filter a user's list is held to: Clients their division, Technicians their own records. */
  function scopedFilter(user: PublicUser, query: InspectionListQuery): InspectionFilter | null {
    const scope = divisionScope(user, query.division);
    if (scope.none) return null;
    return {
      division: scope.division,
      technicianId: user.role === 'Technician' ? user.employeeId : query.technicianId,
      type: query.type,
      from: query.from,
      to: query.to,
      section: query.section,
      curveNumber: query.curveNumber,
      q: query.q,
    };
  }

  /** One page as JSON bytes ({logs, total}, checked against the shared contract when made). */
  async function list(user: PublicUser, query: InspectionListQuery): Promise<JsonBody> {
    const filter = scopedFilter(user, query);
    if (!filter) return new JsonBody(Buffer.from(JSON.stringify({ logs: [], total: 0 })));
    const version = (await readTableVersions(db, ['inspection_logs'])).get('inspection_logs') ?? 0;
    const filterKey = JSON.stringify(filter);
    return pages.get(`${filterKey}|${query.limit}|${query.offset}`, version, async () => {
      const [rows, total] = await Promise.all([
        listInspectionPage(db, filter, { limit: query.limit, offset: query.offset }),
        totals.get(filterKey, version, () => countInspections(db, filter)),
      ]);
      const answer = inspectionListResponseSchema.parse({ logs: rows.map(toInspectionLog), total });
      return new JsonBody(Buffer.from(JSON.stringify(answer)));
    });
  }

  /** The record, if this user may see it; 404 otherwise (no hint that it exists). */
  async function visibleRecord(user: PublicUser, recordId: string): Promise<InspectionRow & { imageHash: string }> {
    const row = await findInspectionByRecordId(db, recordId);
    if (!row || !canSee(user, row)) throw new AppError('NOT_FOUND', `Inspection record ${recordId} not found`);
    const { imageHash } = row;
    if (!imageHash) throw new AppError('NOT_FOUND', `Inspection record ${recordId} has no photo`);
    return { ...row, imageHash };
  }

  async function photoFileOf(row: InspectionRow & { imageHash: string }): Promise<PhotoFile | null> {
    const size = await blobs.size(row.imageHash);
    if (size === null) return null;
    const head = await blobs.readHead(row.imageHash, 16);
    const format = formatOf(head) ?? 'jpeg';
    return {
      recordId: row.recordId,
      fileName: row.fileName ?? `inspection_${row.recordId}.${EXTENSIONS[format]}`,
      hash: row.imageHash,
      size,
      contentType: CONTENT_TYPES[format],
      takenAt: row.submittedAt,
    };
  }

  /** The photo of a record the user may see; 404 otherwise. */
  async function photo(user: PublicUser, recordId: string): Promise<PhotoFile> {
    const file = await photoFileOf(await visibleRecord(user, recordId));
    if (!file) throw new AppError('NOT_FOUND', `The photo of inspection record ${recordId} is missing`);
    return file;
  }

  /**
   * The photos of several records, all or nothing: a download must not quietly leave one out.
   * Order follows the request.
   */
  async function photos(user: PublicUser, recordIds: readonly string[]): Promise<PhotoFile[]> {
    const rows = new Map((await findInspectionsByRecordIds(db, recordIds)).map((row) => [row.recordId, row]));
    const notFound: string[] = [];
    const missing: string[] = [];
    const files: PhotoFile[] = [];
    for (const recordId of recordIds) {
      const row = rows.get(recordId);
      if (!row || !canSee(user, row) || !row.imageHash) {
        notFound.push(recordId);
        continue;
      }
      const file = await photoFileOf({ ...row, imageHash: row.imageHash });
      if (file) files.push(file);
      else missing.push(recordId);
    }
    if (notFound.length > 0) throw new AppError('NOT_FOUND', `Inspection records not found: ${notFound.join(', ')}`);
    if (missing.length > 0) throw new AppError('NOT_FOUND', `Photos missing for inspection records: ${missing.join(', ')}`);
    return files;
  }

  /** A small WebP of the record's photo, made once and kept beside the photo. */
  async function thumbnail(user: PublicUser, recordId: string): Promise<{ bytes: Buffer; hash: string; contentType: string }> {
    const row = await visibleRecord(user, recordId);
    const bytes = await derivedPhoto(blobs, row.imageHash, THUMBNAIL);
    if (!bytes) throw new AppError('NOT_FOUND', `The photo of inspection record ${recordId} is missing or unreadable`);
    return { bytes, hash: row.imageHash, contentType: THUMBNAIL.contentType };
  }

  /**
   * Deletes records (Admins only; the route says so) with their audit entries in one
   * transaction, then removes the photos no record uses any more. IDs that name no record are
   * answered, not an error: a repeated delete must not fail.
   */
  async function remove(actor: Actor, recordIds: readonly string[]): Promise<{ deleted: string[]; notFound: string[] }> {
    const deletedRows = await db.transaction(async (tx) => {
      const rows = await deleteInspectionsByRecordIds(tx, recordIds);
      // Nothing matched: roll back, so the table's change counter (moved by the statement
      // trigger) does not throw away every instance's cached counts for a refused delete.
      if (rows.length === 0) throw new NothingDeleted();
      const hashes = [...new Set(rows.map((r) => r.imageHash).filter((h): h is string => h !== null))];
      await queuePhotoRemoval(tx, hashes);
      await deps.followUps.recordsDeleted(tx, rows, actor);
      await recordAudits(
        tx,
        rows.map((row) => ({
          actor: actor.user,
          action: 'inspection.delete' as const,
          entity: 'inspection',
          entityId: row.recordId,
          before: auditStateOf(row),
          after: null,
          requestId: actor.requestId,
        })),
      );
      return rows;
    }).catch((error: unknown) => {
      if (error instanceof NothingDeleted) return [];
      throw error;
    });
    // After the commit: a failure here leaves the hashes queued for the next sweep.
    await deps.photoFiles.sweep([...new Set(deletedRows.map((r) => r.imageHash).filter((h): h is string => h !== null))]);
    const deleted = new Set(deletedRows.map((r) => r.recordId));
    return { deleted: [...deleted], notFound: recordIds.filter((id) => !deleted.has(id)) };
  }

  /** An upload is being received: the photo worker gives way until it ends (call what this answers). */
  function uploadStarted(): () => void {
    return deps.photoWorker.uploadStarted();
  }

  return { admit, upload, uploadStarted, list, photo, photos, thumbnail, remove };
}

/** What the audit keeps of a deleted record: enough to tell what it was and whose it was. */
function auditStateOf(row: InspectionRow): Record<string, unknown> {
  return {
    recordId: row.recordId,
    date: row.date,
    type: row.type,
    divisionRailway: row.divisionRailway,
    section: row.section,
    curveNumber: row.curveNumber,
    line: row.line,
    technicianId: row.technicianId,
    technicianName: row.technicianName,
    cofValue: row.cofValue,
    serviceUpdate: row.serviceUpdate,
    fileName: row.fileName,
    // Named so the audit's secret filter (which drops keys like "hash") keeps it.
    photoSha256: row.imageHash,
    submittedAt: row.submittedAt.toISOString(),
  };
}

/** A delete that matched no record: its transaction is rolled back (see remove). */
class NothingDeleted extends Error {}

export type InspectionService = ReturnType<typeof createInspectionService>;
