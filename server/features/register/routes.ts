import type { MultipartFile } from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DIVISIONS } from '../../../common/constants.js';
import {
  IMPORT_MAX_BYTES,
  importResultSchema,
  REGISTER_KINDS,
  type RegisterKind,
  registerFiltersQuerySchema,
  registerFiltersResponseSchema,
} from '../../../common/schemas/register.js';
import { AppError } from '../../app-error.js';
import { attachment } from '../../content-disposition.js';
import { access, currentActor, currentUser } from '../../plugins/access.js';
import { multipartForms } from '../../plugins/multipart.js';
import { XLSX_CONTENT_TYPE } from '../../xlsx/stream-workbook.js';
import type { RegisterExportService } from './export-service.js';
import type { RegisterFiltersService } from './filters-service.js';
import type { RegisterImportService } from './import-service.js';

const MAX_MB = IMPORT_MAX_BYTES / (1024 * 1024);

const importQuerySchema = z.object({
  dryRun: z
    .enum(['true', 'false', '1', '0'], { error: 'dryRun must be true or false' })
    .optional()
    .transform((v) => v === 'true' || v === '1'),
});
const exportQuerySchema = z.object({
  division: z.enum(DIVISIONS, { error: `division must be one of ${DIVISIONS.join(', ')}` }).optional(),
});

/**
 * The buffer of each part before the parser pauses for it. @fastify/busboy 3.2 hangs for good
 * when a part it skips (no Content-Disposition, or past the parts limit) fills its 16 KB default
 * in the chunk that also holds the closing boundary: it pauses for a reader that never comes.
 * Above any one chunk's size (a socket read is at most 64 KB), it never pauses for one; the
 * parts it does hand over are read at once, so memory stays bounded by the limits.
 */
const PART_HIGH_WATER_MARK = IMPORT_MAX_BYTES + 1024 * 1024;

/** The `type` and `file` parts of an import; the file is held in memory (at most IMPORT_MAX_BYTES). */
async function readImport(request: FastifyRequest): Promise<{ type: RegisterKind; bytes: Buffer; fileName: string }> {
  if (!request.isMultipart()) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the file and its type as multipart/form-data');
  }
  let type: string | undefined;
  let file: { bytes: Buffer; fileName: string } | undefined;
  try {
    for await (const part of request.parts({ limits: { fileSize: IMPORT_MAX_BYTES }, fileHwm: PART_HIGH_WATER_MARK })) {
      if (part.type === 'file') {
        const upload: MultipartFile = part;
        if (upload.fieldname !== 'file' || file !== undefined) {
          upload.file.resume();
          continue;
        }
        file = { bytes: await upload.toBuffer(), fileName: upload.filename || 'upload' };
      } else if (part.fieldname === 'type') {
        type = String(part.value).trim();
      }
    }
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') {
      throw new AppError('IMPORT_FILE_TOO_LARGE', `The file is larger than ${MAX_MB} MB; split it into smaller sheets`);
    }
    if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') {
      throw new AppError('VALIDATION_FAILED', 'Send one file and its type');
    }
    throw error;
  }
  const kind = REGISTER_KINDS.find((k) => k === type);
  if (!kind) {
    const message = type ? `type must be curves or stations, not "${type.slice(0, 40)}"` : 'type is required (curves or stations)';
    throw new AppError('VALIDATION_FAILED', `type: ${message}`, { fields: { type: message } });
  }
  if (!file) throw new AppError('VALIDATION_FAILED', 'file: file is required', { fields: { file: 'file is required' } });
  return { type: kind, ...file };
}

export async function registerRoutes(
  app: FastifyInstance,
  deps: { filters: RegisterFiltersService; importer: RegisterImportService; exporter: RegisterExportService },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/register-filters',
    {
      schema: { querystring: registerFiltersQuerySchema, response: { 200: registerFiltersResponseSchema } },
      config: { access: access.signedIn },
    },
    async (request) => deps.filters.filters(currentUser(request), request.query.division),
  );

  // The one route here that reads a multipart form, in a context of its own (server/plugins/multipart.ts).
  await app.register(async (forms) => {
    await forms.register(multipartForms);
    forms.withTypeProvider<ZodTypeProvider>().post(
      '/api/import-excel',
      {
        schema: { querystring: importQuerySchema, response: { 200: importResultSchema } },
        config: { access: access.roles('Admin') },
      },
      async (request) => {
        const upload = await readImport(request);
        return deps.importer.import(currentActor(request), { ...upload, dryRun: request.query.dryRun });
      },
    );
  });

  for (const kind of REGISTER_KINDS) {
    r.get(
      `/api/export/${kind}`,
      { schema: { querystring: exportQuerySchema }, config: { access: access.roles('Admin') } },
      async (request, reply) => {
        const { fileName, stream } = await deps.exporter.open(kind, request.query.division);
        void reply.headers({ 'content-type': XLSX_CONTENT_TYPE, 'content-disposition': attachment(fileName), 'cache-control': 'private, no-store' });
        return reply.send(stream);
      },
    );
  }
}
