import { availableParallelism } from 'node:os';
import type { MultipartFile } from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  inspectionListQuerySchema,
  inspectionListResponseSchema,
  uploadMetadataSchema,
  uploadResponseSchema,
} from '../../../common/schemas/inspection.js';
import { AppError, validationError } from '../../app-error.js';
import { access, currentUser } from '../../plugins/access.js';
import { Semaphore } from '../../semaphore.js';
import type { InspectionService } from './service.js';

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

export async function inspectionRoutes(app: FastifyInstance, { inspections }: { inspections: InspectionService }) {
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
      schema: { querystring: inspectionListQuerySchema, response: { 200: inspectionListResponseSchema } },
      config: { access: access.signedIn },
    },
    async (request, reply) => {
      // Spec section 9: the inspections list is never cached.
      void reply.header('cache-control', 'no-store');
      return inspections.list(currentUser(request), request.query);
    },
  );

  r.get(
    '/api/inspections/:recordId/image',
    {
      schema: { params: z.object({ recordId: z.string().min(1).max(64) }) },
      config: { access: access.signedIn },
    },
    async (request, reply) => {
      const image = await inspections.image(currentUser(request), request.params.recordId);
      void reply.headers({
        'content-type': image.contentType,
        'content-length': String(image.size),
        // A record's photo never changes; only this signed-in browser may keep it.
        'cache-control': 'private, max-age=86400',
        etag: `"${image.hash}"`,
      });
      // For HEAD, Fastify's generated route drops the body and keeps these headers.
      return reply.send(image.stream);
    },
  );
}
