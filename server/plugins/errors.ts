/**
 * The one error handler: catalogue errors map to their status and message, validation
 * errors name the field and the rule, anything unexpected is logged with the request id
 * and answered 500 with no internals.
 */
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ERRORS, type ErrorBody, type ErrorCode } from '../../common/errors.js';
import { AppError } from '../app-error.js';
import { noteUnexpectedError } from '../logging.js';

/** Fastify's own client-error codes, mapped onto the catalogue. */
const FASTIFY_CODES: Record<string, ErrorCode> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'MALFORMED_JSON',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'MALFORMED_JSON',
  FST_ERR_CTP_BODY_TOO_LARGE: 'BODY_TOO_LARGE',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'VALIDATION_FAILED',
};

/**
 * What the multipart parser (@fastify/busboy) throws for a body that is not the form it says:
 * plain Errors with no code or status, so they are told by their message. The client's fault.
 */
const MULTIPART_PARSE_ERROR = /^(Unexpected end of multipart data|.* terminated early due to unexpected end of multipart data|Multipart: Boundary not found|Malformed part header)$/;

/**
 * SQLSTATEs of text PostgreSQL cannot hold, which only a client's input brings: a NUL in text
 * (22021) or a \u0000 escape in jsonb (22P05). Drizzle wraps the driver's error as its cause.
 */
const UNSTORABLE_TEXT = new Set(['22021', '22P05']);
const NUL_MESSAGE = 'must not contain the NUL character';

function databaseCodeOf(error: Error): string | undefined {
  for (const candidate of [error, error.cause]) {
    if (candidate && typeof candidate === 'object' && 'code' in candidate && typeof candidate.code === 'string') return candidate.code;
  }
  return undefined;
}

/** Where a NUL character is in a parsed request part (a key or a string value), or undefined. */
function nulPath(value: unknown, path: string, depth = 0): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path : undefined;
  if (value === null || typeof value !== 'object' || depth > 32) return undefined;
  // Parsed JSON, query and params only: a body handed on as a stream (an upload) or a Buffer is
  // not walked (a stream's properties reach the socket and the server: an endless walk).
  const prototype: unknown = Object.getPrototypeOf(value);
  if (!Array.isArray(value) && prototype !== Object.prototype && prototype !== null) return undefined;
  for (const [key, item] of Object.entries(value)) {
    const at = path ? `${path}.${key}` : key;
    if (key.includes('\u0000')) return at;
    const found = nulPath(item, at, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The catalogue code of another client error's status; statuses the catalogue lacks answer 400. */
const CODE_OF_STATUS: Partial<Record<number, ErrorCode>> = {
  401: 'NOT_AUTHENTICATED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  409: 'CONFLICT',
  413: 'BODY_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
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
  // PostgreSQL stores no NUL in text: a path, query or JSON body carrying one is refused here,
  // naming the field, before any handler can send it to the database (and fail there).
  // Synchronous (done, no promise): it waits for nothing, and every request passes through it.
  app.addHook('preValidation', (request, _reply, done) => {
    // Params and query come from their parsers as null-prototype records of strings: copied into
    // plain objects, so the walk below (which skips anything that is not plain data) reads them.
    const parts: Array<[string, unknown]> = [
      ['params', Object.assign({}, request.params)],
      ['querystring', Object.assign({}, request.query)],
      ['body', request.body],
    ];
    for (const [part, value] of parts) {
      const field = nulPath(value, '');
      if (field !== undefined) {
        const name = field || part;
        throw new AppError('VALIDATION_FAILED', `${name}: ${NUL_MESSAGE}`, { fields: { [name]: NUL_MESSAGE } });
      }
    }
    done();
  });

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
    if (UNSTORABLE_TEXT.has(databaseCodeOf(error) ?? '')) {
      // The same from input the hook above cannot see (a multipart form's fields, a sheet's cells).
      return send(reply, request, 'VALIDATION_FAILED', `Text ${NUL_MESSAGE}`);
    }
    if (MULTIPART_PARSE_ERROR.test(error.message)) {
      return send(reply, request, 'VALIDATION_FAILED', `The multipart form is malformed: ${error.message}`);
    }
    const status = 'statusCode' in error && typeof error.statusCode === 'number' ? error.statusCode : 500;
    if (status >= 400 && status < 500) {
      // Another client error raised by Fastify or a plugin: its catalogue code, at that code's
      // status (a client matches on the code), said plainly.
      // The request's line says status and code; the error itself only at debug.
      request.log.debug({ err: error }, 'client error');
      return send(reply, request, CODE_OF_STATUS[status] ?? 'VALIDATION_FAILED', error.message);
    }
    // Logged with its stack on the request's line (server/logging.ts), at error level.
    noteUnexpectedError(request, error);
    return send(reply, request, 'INTERNAL', ERRORS.INTERNAL.message);
  });
}

export const errors = fp(errorsPlugin, { name: 'errors' });

/**
 * Fastify's `frameworkErrors` option: the errors its router raises before any route or hook
 * runs (a path that is not valid percent-encoding, a path parameter longer than
 * maxParamLength), answered from the catalogue like every other refusal instead of Fastify's
 * own {code: 'FST_ERR_BAD_URL'} or a 414.
 */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const message =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 'A path parameter is too long' : error.code === 'FST_ERR_BAD_URL' ? 'The path is not valid URL encoding' : error.message;
  return send(reply, request, 'VALIDATION_FAILED', message);
}

/**
 * Fastify's `clientErrorHandler`: what a connection hears when Node gives up on it before any
 * route runs. A request that did not arrive whole within REQUEST_TIMEOUT gets the catalogue's
 * 408; anything else (a malformed request line, oversized headers) the catalogue's 400 or 431.
 */
export function clientErrors(error: NodeJS.ErrnoException, socket: Duplex) {
  // A reset connection, or one already gone: there is nobody to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const code: ErrorCode = error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 'REQUEST_TIMEOUT' : error.code === 'HPE_HEADER_OVERFLOW' ? 'HEADERS_TOO_LARGE' : 'VALIDATION_FAILED';
  const { status, message } = ERRORS[code];
  const body = JSON.stringify({ code, message });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}
