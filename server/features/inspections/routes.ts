import { availableParallelism } from 'node:os';
import type { MultipartFile } from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ZipFile } from 'yazl';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  inspectionListQuerySchema,
  uploadMetadataSchema,
  uploadResponseSchema,
} from '../../../common/schemas/inspection.js';
import {
  deleteImagesResponseSchema,
  deleteRecordResponseSchema,
  imageIdsRequestSchema,
  recordIdSchema,
  zipFileName,
} from '../../../common/schemas/records.js';
import { AppError, validationError } from '../../app-error.js';
import { access, currentActor, currentUser } from '../../plugins/access.js';
import { Semaphore } from '../../semaphore.js';
import type { BlobStore } from '../../storage/blob-store.js';
import type { InspectionService, PhotoFile } from './service.js';
import { clientHas, sendStoredFile } from '../../http-range.js';
import { attachment } from '../../content-disposition.js';
import { sendJsonBody } from '../../json-body.js';

/** Reads the `metadata` and `file` parts of an upload; the photo is held in memory (<= 10 MB). */
async function readUpload(request: FastifyRequest): Promise<{ metadataText: string | undefined; photo: Buffer | undefined }> {
  if (!request.isMultipart()) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the photo and its metadata as multipart/form-data');
  }
  let metadataText: string | undefined;
  let photo: Buffer | undefined;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        const file: MultipartFile = part;
        if (file.fieldname !== 'file' || photo !== undefined) {
          // Drain what we will not use, so the rest of the request can still be read.
          file.file.resume();
          continue;
        }
        photo = await file.toBuffer();
      } else if (part.fieldname === 'metadata') {
        metadataText = typeof part.value === 'string' ? part.value : String(part.value);
      }
    }
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError('PHOTO_TOO_LARGE');
    if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') {
      throw new AppError('VALIDATION_FAILED', 'Send one photo (file) and one metadata field');
    }
    throw error;
  }
  return { metadataText, photo };
}

function parseMetadata(text: string | undefined) {
  if (text === undefined || text.trim() === '') {
    throw new AppError('VALIDATION_FAILED', 'metadata: metadata is required', { fields: { metadata: 'metadata is required' } });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new AppError('VALIDATION_FAILED', 'metadata: metadata is not valid JSON', { fields: { metadata: 'metadata is not valid JSON' } });
  }
  const parsed = uploadMetadataSchema.safeParse(json);
  if (!parsed.success) throw validationError(parsed.error);
  return parsed.data;
}

export async function inspectionRoutes(app: FastifyInstance, { inspections, blobs }: { inspections: InspectionService; blobs: BlobStore }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  // Checking a photo is CPU work and holds up to 10 MB: more at once than the cores can
  // decode only adds memory, so later uploads wait (their bytes stay in the socket).
  const uploadSlots = new Semaphore(Math.max(2, availableParallelism() * 2));

  r.post(
    '/api/inspections/upload',
    {
      schema: { response: { 200: uploadResponseSchema, 201: uploadResponseSchema } },
      config: { access: access.roles('Technician', 'Admin') },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const answer = await uploadSlots.run(async () => {
        const { metadataText, photo } = await readUpload(request);
        const metadata = parseMetadata(metadataText);
        if (photo === undefined) {
          throw new AppError('VALIDATION_FAILED', 'file: the photo (file) is required', { fields: { file: 'the photo (file) is required' } });
        }
        return inspections.upload(user, metadata, photo);
      });
      return reply.status(answer.duplicate ? 200 : 201).send(answer);
    },
  );

  r.get(
    '/api/inspections',
    {
      // The answer is {logs, total} (inspectionListResponseSchema), checked when it is made.
      schema: { querystring: inspectionListQuerySchema },
      config: { access: access.signedIn },
    },
    async (request, reply) => {
      // Spec section 7: the inspections list is never cached by the browser (no-store).
      return sendJsonBody(request, reply, await inspections.list(currentUser(request), request.query));
    },
  );

  const recordParams = z.object({ recordId: recordIdSchema });

  r.get(
    '/api/inspections/:recordId/image',
    { schema: { params: recordParams }, config: { access: access.signedIn } },
    async (request, reply) => {
      const file = await inspections.photo(currentUser(request), request.params.recordId);
      // A record's photo never changes; only this signed-in browser may keep it. A Range asks
      // for part of it (a download resumed on a poor line). For HEAD, Fastify's generated
      // route drops the body and keeps the headers.
      return sendStoredFile(request, reply, blobs, { hash: file.hash, sizeBytes: file.size, contentType: file.contentType }, PHOTO_CACHE_CONTROL);
    },
  );

  r.get(
    '/api/inspections/:recordId/thumbnail',
    { schema: { params: recordParams }, config: { access: access.signedIn } },
    async (request, reply) => {
      const thumb = await inspections.thumbnail(currentUser(request), request.params.recordId);
      if (answeredNotModified(request, reply, `"thumb-${thumb.hash}"`)) return reply;
      void reply.header('content-type', thumb.contentType);
      return reply.send(thumb.bytes);
    },
  );

  r.delete(
    '/api/inspections/:recordId',
    {
      schema: { params: recordParams, response: { 200: deleteRecordResponseSchema } },
      config: { access: access.roles('Admin') },
    },
    async (request) => {
      const { recordId } = request.params;
      const { deleted } = await inspections.remove(currentActor(request), [recordId]);
      if (deleted.length === 0) throw new AppError('NOT_FOUND', `Inspection record ${recordId} not found`);
      return { recordId, deleted: true as const };
    },
  );

  r.post(
    '/api/images/delete',
    {
      schema: { body: imageIdsRequestSchema, response: { 200: deleteImagesResponseSchema } },
      config: { access: access.roles('Admin') },
    },
    async (request) => {
      const { deleted, notFound } = await inspections.remove(currentActor(request), request.body.imageIds);
      return { deletedCount: deleted.length, notFound };
    },
  );

  // Downloads: Admins any record, Clients their division's (read-only, but theirs to keep).
  r.get(
    '/api/image/download/:id',
    { schema: { params: z.object({ id: recordIdSchema }) }, config: { access: access.roles('Admin', 'Client') } },
    async (request, reply) => {
      const file = await inspections.photo(currentUser(request), request.params.id);
      return sendPhotoAttachment(reply, file);
    },
  );

  r.post(
    '/api/images/download',
    { schema: { body: imageIdsRequestSchema }, config: { access: access.roles('Admin', 'Client') } },
    async (request, reply) => {
      const files = await inspections.photos(currentUser(request), request.body.imageIds);
      const [only] = files;
      if (files.length === 1 && only) return sendPhotoAttachment(reply, only);
      return sendZip(reply, files);
    },
  );

  function sendPhotoAttachment(reply: FastifyReply, file: PhotoFile) {
    void reply.headers({
      'content-type': file.contentType,
      'content-length': String(file.size),
      'content-disposition': attachment(file.fileName),
      'cache-control': 'private, no-cache',
    });
    return reply.send(blobs.stream(file.hash));
  }

  /**
   * Several photos as one zip, streamed: each photo's file is opened only when the zip reaches
   * it and flows through with backpressure, so memory stays flat however many photos there are.
   * Photos are stored, not deflated (JPEGs do not shrink), which also lets the size be known
   * up front.
   */
  async function sendZip(reply: FastifyReply, files: readonly PhotoFile[]) {
    const zip = new ZipFile();
    for (const file of files) {
      zip.addReadStreamLazy(file.fileName, { size: file.size, compress: false, mtime: file.takenAt }, (ready) => {
        ready(null, blobs.stream(file.hash));
      });
    }
    const totalSize = await new Promise<number>((resolve) => {
      zip.end({}, resolve);
    });
    void reply.headers({
      'content-type': 'application/zip',
      'content-disposition': attachment(zipFileName(files.length)),
      'cache-control': 'private, no-cache',
    });
    if (totalSize > 0) void reply.header('content-length', String(totalSize));
    return reply.send(zip.outputStream);
  }
}


/**
 * The browser may keep a photo or thumbnail a day (private: only this signed-in browser);
 * after that, or on reload, the ETag answers 304 without the bytes.
 */
const PHOTO_CACHE_CONTROL = 'private, max-age=86400';

function answeredNotModified(request: FastifyRequest, reply: FastifyReply, etag: string): boolean {
  void reply.headers({ etag, 'cache-control': PHOTO_CACHE_CONTROL });
  if (!clientHas(request, etag)) return false;
  void reply.status(304).send();
  return true;
}
