/**
 * Inspections: the technician's uploads, the records, and the photos' derived files. The app
 * makes the photo files (createPhotoFiles) because the file tools work on them too; the other
 * features use the records filter and the derived files' names.
 */
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client.js';
import type { BlobStore } from '../../storage/blob-store.js';
import type { PhotoFiles } from './photo-files.js';
import { createPhotoWorker, type PhotoWorker } from './photo-worker.js';
import { inspectionRoutes, type UploadOutcome } from './routes.js';
import { createInspectionService, type RecordFollowUps } from './service.js';

export { countInspections, type InspectionFilter, inspectionWhere } from './repository.js';
export { derivedPhoto, PRINT_COPY, remakePhotoVariants, THUMBNAIL } from './photo-variants.js';
export { createPhotoFiles, lockPhoto, type PhotoFiles } from './photo-files.js';
export type { PhotoWorker } from './photo-worker.js';
export type { RecordFollowUps } from './service.js';
export type { UploadOutcome } from './routes.js';

export interface InspectionsFeatureOptions {
  db: Db;
  blobs: BlobStore;
  photoFiles: PhotoFiles;
  appTimeZone: string;
  followUps: RecordFollowUps;
  /** Handed the photo worker once it exists (tests wait for it to be idle before looking at files; the metrics read its backlog). */
  onPhotoWorker?: (worker: PhotoWorker) => void;
  /** Told of each upload answered with its record: stored now ('accepted') or before ('replayed'). */
  onUploadAnswered?: (outcome: UploadOutcome) => void;
}

export async function inspectionsFeature(app: FastifyInstance, options: InspectionsFeatureOptions) {
  const { db, blobs, photoFiles } = options;
  const photoWorker = createPhotoWorker({ db, blobs, photoFiles, log: app.log });
  options.onPhotoWorker?.(photoWorker);
  // Photo files left queued by an earlier run (a crash after a deletion) go at start.
  app.addHook('onReady', async () => photoFiles.start());
  app.addHook('onClose', async () => photoFiles.stop());
  app.addHook('onReady', async () => photoWorker.start());
  app.addHook('onClose', async () => photoWorker.stop());
  const inspections = createInspectionService({ db, blobs, photoFiles, photoWorker, appTimeZone: options.appTimeZone, followUps: options.followUps });
  await app.register(inspectionRoutes, { inspections, blobs, ...(options.onUploadAnswered ? { onUploadAnswered: options.onUploadAnswered } : {}) });
}
