import { randomInt } from 'node:crypto';
import type { Readable } from 'node:stream';
import { dateInTimeZone } from '../../../common/rules/dates.js';
import { divisionScope } from '../../../common/rules/division-scope.js';
import type { PublicUser } from '../../../common/schemas/auth.js';
import type { UploadMetadata, UploadResponse } from '../../../common/schemas/inspection.js';
import { AppError } from '../../app-error.js';
import type { Db } from '../../db/client.js';
import type { InspectionRow } from '../../db/schema.js';
import type { BlobStore } from '../../storage/blob-store.js';
import { CONTENT_TYPES, EXTENSIONS, checkPhoto, formatOf } from './photo.js';
import { toInspectionLog } from './presenter.js';
import {
  countInspectionsWithImage,
  findInspectionByRecordId,
  findInspectionBySubmissionId,
  insertInspection,
  listInspections,
} from './repository.js';

export interface InspectionDeps {
  db: Db;
  blobs: BlobStore;
  appTimeZone: string;
}

const RECORD_ID_ALPHABET = '0123456789ABCDEFGHJKLMNPQRSTUVWXYZ';

/** INS-20261121-7KQ2XM: the visit's date for people, six random characters for uniqueness. */
function newRecordId(date: string): string {
  let suffix = '';
  for (let i = 0; i < 6; i++) suffix += RECORD_ID_ALPHABET[randomInt(RECORD_ID_ALPHABET.length)];
  return `INS-${date.replaceAll('-', '')}-${suffix}`;
}

export const imageUrlOf = (recordId: string) => `/api/inspections/${encodeURIComponent(recordId)}/image`;

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

  async function upload(user: PublicUser, metadata: UploadMetadata, photo: Buffer): Promise<UploadResponse> {
    const today = dateInTimeZone(new Date(), deps.appTimeZone);
    // A phone's clock may run a little ahead of the railway's; a day later than that is a mistake.
    const tomorrow = dateInTimeZone(new Date(Date.now() + 86_400_000), deps.appTimeZone);
    if (metadata.date > tomorrow) {
      throw new AppError('VALIDATION_FAILED', `date: Date ${metadata.date} is in the future (today is ${today})`, {
        fields: { date: 'Date is in the future' },
      });
    }

    const earlier = await findInspectionBySubmissionId(db, metadata.clientSubmissionId);
    if (earlier) return replayOf(earlier, user);

    const checked = await checkPhoto(photo);
    const stored = await blobs.put(photo);
    const recordId = newRecordId(metadata.date);
    const fileName = `inspection_${recordId}.${EXTENSIONS[checked.format]}`;
    const isService = metadata.type === 'Service';
    try {
      const created = await insertInspection(db, {
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
        imageHash: stored.hash,
        imageSizeBytes: stored.sizeBytes,
        imageWidth: checked.width,
        imageHeight: checked.height,
        imageData: null,
        serviceUpdate: isService ? metadata.serviceUpdate : null,
        partCategory: isService ? metadata.partCategory : null,
        partItemName: isService ? metadata.partItemName : null,
        isMachineWorking: isService ? metadata.isMachineWorking : null,
        greaseDepth: isService && metadata.greaseDepth !== null ? metadata.greaseDepth.toFixed(1) : null,
        latitude: metadata.latitude,
        longitude: metadata.longitude,
        locationAccuracyM: metadata.accuracy,
      });
      if (created) return uploadAnswer(created, false);
      // Two tries of one submission raced and the other stored first: answer that one.
      const winner = await findInspectionBySubmissionId(db, metadata.clientSubmissionId);
      if (!winner) throw new Error('insert skipped but no record holds the clientSubmissionId');
      return replayOf(winner, user);
    } catch (error) {
      // No orphan photo: remove the blob unless another record uses the same bytes.
      if ((await countInspectionsWithImage(db, stored.hash).catch(() => 1)) === 0) {
        await blobs.delete(stored.hash).catch(() => undefined);
      }
      throw error;
    }
  }

  async function list(user: PublicUser, page: { limit: number; offset: number }) {
    const scope = divisionScope(user, undefined);
    if (scope.none) return { logs: [], total: 0 };
    const { rows, total } = await listInspections(
      db,
      { division: scope.division, technicianId: user.role === 'Technician' ? user.employeeId : undefined },
      page,
    );
    return { logs: rows.map(toInspectionLog), total };
  }

  /** The photo of a record the user may see; 404 otherwise (no hint that it exists). */
  async function image(user: PublicUser, recordId: string): Promise<{ stream: Readable; size: number; contentType: string; hash: string }> {
    const row = await findInspectionByRecordId(db, recordId);
    if (!row || !row.imageHash || !canSee(user, row)) throw new AppError('NOT_FOUND', 'Image not found');
    const size = await blobs.size(row.imageHash);
    if (size === null) throw new AppError('NOT_FOUND', 'Image not found');
    const head = await blobs.readHead(row.imageHash, 16);
    const contentType = CONTENT_TYPES[formatOf(head) ?? 'jpeg'];
    return { stream: blobs.stream(row.imageHash), size, contentType, hash: row.imageHash };
  }

  return { upload, list, image };
}

export type InspectionService = ReturnType<typeof createInspectionService>;
