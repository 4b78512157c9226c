import { pipeline } from 'node:stream';
import { MAX_PHOTO_BYTES } from '../../../common/constants.js';
import type { MultipartFile } from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ZipFile } from 'yazl';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  inspectionListQuerySchema,
  inspectionListResponseSchema,
  uploadMetadataSchema,
  uploadResponseSchema,
  type UploadMetadata,
  type UploadResponse,
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
import { multipartForms } from '../../plugins/multipart.js';
import type { BlobStore } from '../../storage/blob-store.js';
import type { InspectionService, PhotoFile, ReceivedPhoto } from './service.js';
import { PhotoInspector } from './photo.js';
import type { PublicUser } from '../../../common/schemas/auth.js';
import { clientHas, sendStoredFile } from '../../http-range.js';
import { attachment } from '../../content-disposition.js';
import { sendJsonBody } from '../../json-body.js';

/**
 * Reads an upload's `metadata` and `file` parts as they arrive, without holding the photo in
 * memory: the photo streams through the header checks into the store's staging area, hashed
 * on the way. Metadata sent first (as the app does) is checked before any photo byte is
 * stored, and a replay of a stored submission skips the photo altogether. The staged photo is
 * the caller's to commit (through the service) or discard.
 */
async function receiveUpload(
  request: FastifyRequest,
  inspections: InspectionService,
  blobs: BlobStore,
  user: PublicUser,
): Promise<{ metadata: UploadMetadata | undefined; photo: ReceivedPhoto | undefined; replay: UploadResponse | null }> {
  if (!request.isMultipart()) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the photo and its metadata as multipart/form-data');
  }
  let metadata: UploadMetadata | undefined;
  let photo: ReceivedPhoto | undefined;
  let replay: UploadResponse | null = null;
  try {
    // A part buffer above any socket read (64 KB) and the photo's limit: @fastify/busboy waits
    // for a reader that never comes when a skipped part fills a smaller one (found by the fuzzer).
    for await (const part of request.parts({ fileHwm: MAX_PHOTO_BYTES + 1024 * 1024 })) {
      if (part.type === 'file') {
        const file: MultipartFile = part;
        if (file.fieldname !== 'file' || photo !== undefined || replay !== null) {
          // Drain what we will not use, so the rest of the request can still be read.
          file.file.resume();
          continue;
        }
        photo = await receivePhoto(file, blobs);
      } else if (part.fieldname === 'metadata' && metadata === undefined) {
        metadata = parseMetadata(typeof part.value === 'string' ? part.value : String(part.value));
        replay = await inspections.admit(user, metadata);
      }
    }
  } catch (error) {
    await photo?.staged.discard();
    throw multipartError(error);
  }
  return { metadata, photo, replay };
}

async function receivePhoto(file: MultipartFile, blobs: BlobStore): Promise<ReceivedPhoto> {
  const inspector = new PhotoInspector();
  // pipeline: an error of the part (too large) or of the checks (not an image) ends both, and
  // the staging write with them, which then leaves nothing behind.
  const staged = await blobs.stage(pipeline(file.file, inspector, () => undefined));
  try {
    // Past the size limit the part ends early, marked truncated, rather than failing.
    if (file.file.truncated) throw new AppError('PHOTO_TOO_LARGE');
    return { staged, checked: await inspector.result() };
  } catch (error) {
    await staged.discard();
    throw error;
  }
}

function multipartError(error: unknown): unknown {
  const code = (error as { code?: string }).code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') return new AppError('PHOTO_TOO_LARGE');
  if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') {
    return new AppError('VALIDATION_FAILED', 'Send one photo (file) and one metadata field');
  }
  return error;
}

function parseMetadata(text: string): UploadMetadata {
  if (text.trim() === '') {
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

/** How an upload was answered with its record: stored by this request, or the one a retry of the same submission stored before. */
export type UploadOutcome = 'accepted' | 'replayed';

export async function inspectionRoutes(
  app: FastifyInstance,
  { inspections, blobs, onUploadAnswered }: { inspections: InspectionService; blobs: BlobStore; onUploadAnswered?: (outcome: UploadOutcome) => void },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  // The one route here that reads a multipart form, in a context of its own (server/plugins/multipart.ts).
  await app.register(async (forms) => {
    await forms.register(multipartForms);
    forms.withTypeProvider<ZodTypeProvider>().post(
      '/api/inspections/upload',
      {
        schema: { response: { 200: uploadResponseSchema, 201: uploadResponseSchema } },
        config: { access: access.roles('Technician', 'Admin') },
      },
      async (request, reply) => {
        const user = currentUser(request);
        const uploadEnded = inspections.uploadStarted();
        let answer: UploadResponse;
        let photo: ReceivedPhoto | undefined;
        try {
          const received = await receiveUpload(request, inspections, blobs, user);
          const { metadata, replay } = received;
          photo = received.photo;
          if (replay) answer = replay;
          else if (metadata === undefined) {
            throw new AppError('VALIDATION_FAILED', 'metadata: metadata is required', { fields: { metadata: 'metadata is required' } });
          } else if (photo === undefined) {
            throw new AppError('VALIDATION_FAILED', 'file: the photo (file) is required', { fields: { file: 'the photo (file) is required' } });
          } else answer = await inspections.upload(user, metadata, photo);
        } finally {
          // Before the answer goes: nothing after a commit; otherwise the staged bytes go.
          await photo?.staged.discard();
          uploadEnded();
        }
        onUploadAnswered?.(answer.duplicate ? 'replayed' : 'accepted');
        return reply.status(answer.duplicate ? 200 : 201).send(answer);
      },
    );
  });

  r.get(
    '/api/inspections',
    {
      // The answer is {logs, total} (inspectionListResponseSchema), checked when it is made.
      schema: { querystring: inspectionListQuerySchema, response: { 200: inspectionListResponseSchema } },
      config: { access: access.signedIn },
    },
    async (request, reply) => {
      // The original contract: the inspections list is never cached by the browser (no-store).
      return sendJsonBody(request, reply, await inspections.list(currentUser(request), request.query));
    },
  );

  const recordParams = z.object({ recordId: recordIdSchema });

  r.get(
    '/api/inspections/:recordId/image',
    { schema: { params: recordParams }, config: { access: access.signedIn } },
    async (request, reply) => {
      const file = await inspections.photo(currentUser(request), request.params.recordId);
      // A record's photo never changes; the browser revalidates it with its ETag. A Range asks
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
 * The browser asks again before each use of a photo or thumbnail it kept (private: no shared
 * cache keeps it): the server checks who is signed in now, so the next user of a shared phone
 * cannot read the last one's photos from the cache. The ETag answers 304 without the bytes.
 */
const PHOTO_CACHE_CONTROL = 'private, no-cache';

function answeredNotModified(request: FastifyRequest, reply: FastifyReply, etag: string): boolean {
  void reply.headers({ etag, 'cache-control': PHOTO_CACHE_CONTROL });
  if (!clientHas(request, etag)) return false;
  void reply.status(304).send();
  return true;
}
