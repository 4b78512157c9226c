/**
 * The one error handler: catalogue errors map to their status and message, validation
 * errors name the field and the rule, anything unexpected is logged with the request id
 * and answered 500 with no internals.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ERRORS, type ErrorBody, type ErrorCode } from '../../common/errors.js';
import { AppError } from '../app-error.js';

/** Fastify's own client-error codes, mapped onto the catalogue. */
const FASTIFY_CODES: Record<string, ErrorCode> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'MALFORMED_JSON',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'MALFORMED_JSON',
  FST_ERR_CTP_BODY_TOO_LARGE: 'BODY_TOO_LARGE',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'VALIDATION_FAILED',
};

function send(
  reply: FastifyReply,
  request: FastifyRequest,
  code: ErrorCode,
  message: string,
  fields?: Record<string, string>,
  rowErrors?: ErrorBody['rowErrors'],
) {
  const body: ErrorBody = { code, message, requestId: String(request.id) };
  if (fields && Object.keys(fields).length > 0) body.fields = fields;
  if (rowErrors) body.rowErrors = rowErrors;
  return reply.status(ERRORS[code].status).send(body);
}

async function errorsPlugin(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError | AppError | Error, request, reply) => {
    if (error instanceof AppError) {
      if (error.headers) void reply.headers(error.headers);
      return send(reply, request, error.code, error.message, error.fields, error.rowErrors);
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const fields: Record<string, string> = {};
      for (const issue of error.validation) {
        const field = issue.instancePath.replace(/^\//, '').replaceAll('/', '.') || error.validationContext || 'body';
        fields[field] ??= issue.message ?? 'is not valid';
      }
      const [firstField, firstMessage] = Object.entries(fields)[0] ?? ['body', 'is not valid'];
      return send(reply, request, 'VALIDATION_FAILED', `${firstField}: ${firstMessage}`, fields);
    }
    const fastifyCode = 'code' in error && typeof error.code === 'string' ? FASTIFY_CODES[error.code] : undefined;
    if (fastifyCode) {
      return send(reply, request, fastifyCode, ERRORS[fastifyCode].message);
    }
    const status = 'statusCode' in error && typeof error.statusCode === 'number' ? error.statusCode : 500;
    if (status >= 400 && status < 500) {
      // Another client error raised by Fastify or a plugin: keep its status, say it plainly.
      request.log.info({ err: error }, 'client error');
      const code: ErrorCode = status === 413 ? 'BODY_TOO_LARGE' : status === 415 ? 'UNSUPPORTED_MEDIA_TYPE' : status === 404 ? 'NOT_FOUND' : 'VALIDATION_FAILED';
      return reply.status(status).send({ code, message: error.message, requestId: String(request.id) } satisfies ErrorBody);
    }
    request.log.error({ err: error }, 'unexpected error');
    return send(reply, request, 'INTERNAL', ERRORS.INTERNAL.message);
  });
}

export const errors = fp(errorsPlugin, { name: 'errors' });
