/**
 * Logs for the people who run the server.
 *
 * - One line a request, written when the response has gone (RequestLogController replaces
 *   Fastify's "incoming request" + "request completed" pair): method, URL, status, the error
 *   code of a refused request, duration, request id, the signed-in employee ID. A 5xx line
 *   is at error level and carries the unexpected error (noted by the error handler) with its
 *   stack. The web app's files and /api/health are logged at debug, so a terminal shows the
 *   API traffic at the default level. So are /api/ready and /metrics, which probes and
 *   Prometheus call every few seconds.
 * - Two formats: `json`, pino's own JSON lines (for a log collector), and `pretty`, readable
 *   lines for a terminal, made here by a pino destination that rewrites each JSON record.
 *   No pino-pretty: its transport runs in a worker thread, memory a small server can spare.
 */
import type { FastifyBaseLogger, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import { LogController } from 'fastify';
import fp from 'fastify-plugin';

export type LogFormat = 'pretty' | 'json';

/** Anything text can be written to: process.stdout, a test's collector. */
export interface LogOutput {
  write(text: string): unknown;
}

type LoggerOptions = Exclude<FastifyServerOptions['logger'], boolean | undefined>;

/** Fastify's logger options for LOG_LEVEL and LOG_FORMAT (pretty lines go to `output`, stdout by default). */
export function loggerOptions(settings: { level: string; format: LogFormat; output?: LogOutput; colors?: boolean }): LoggerOptions {
  const output = settings.output ?? process.stdout;
  return {
    level: settings.level,
    // Request lines carry no headers; these stay out should anything log a request or reply whole.
    redact: ['req.headers.cookie', 'req.headers["x-user-data"]', 'res.headers["set-cookie"]'],
    ...(settings.format === 'pretty' ? { stream: prettyLogStream(output, { colors: settings.colors ?? false }) } : {}),
  };
}

// ---------------------------------------------------------------------------------------------
// One line a request

/** A long query string is cut here: a log line stays a line. */
export const MAX_LOGGED_URL_LENGTH = 200;

interface RequestNote {
  /** The `code` of the JSON error body the request was answered with. */
  code?: string;
  /** An unexpected error the error handler answered 500 for. */
  error?: unknown;
  /** The request's line is written (by the end of the response or by its abort). */
  logged?: boolean;
}

/**
 * Each request's note, on the request itself (declared by requestLogging, so every request has
 * the slot): a WeakMap entry per request cost a noticeable share of a light request's time.
 */
const NOTE: unique symbol = Symbol('request log note');

declare module 'fastify' {
  interface FastifyRequest {
    [NOTE]: RequestNote | null;
  }
}

function noteOf(request: FastifyRequest): RequestNote {
  return (request[NOTE] ??= {});
}

/**
 * The error handler's unexpected error: the request's line (at error level) carries it with
 * its stack, so a failed request is still one entry, found by its request id.
 */
export function noteUnexpectedError(request: FastifyRequest, error: unknown): void {
  const note = noteOf(request);
  if (!note.logged) {
    note.error = error;
    return;
  }
  // The client went away first and the request's "aborted" line is written. The handler's
  // read of the body failing for that reason is no news; any other failure is.
  if (isClientGone(error)) request.log.debug({ err: error }, 'error after the client went away');
  else request.log.error({ err: error }, 'unexpected error after the client went away');
}

/** The error a handler gets when the client closed the connection (a phone losing its signal mid-upload). */
function isClientGone(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = 'code' in error ? error.code : undefined;
  return code === 'ECONNRESET' || code === 'ERR_STREAM_PREMATURE_CLOSE' || error.message === 'aborted';
}

function boundedUrl(url: string): string {
  return url.length > MAX_LOGGED_URL_LENGTH ? `${url.slice(0, MAX_LOGGED_URL_LENGTH)}...` : url;
}

/** The web app's files (and the SPA's index.html) and the health and readiness probes: debug, not info. */
function isQuiet(url: string): boolean {
  const query = url.indexOf('?');
  const path = query === -1 ? url : url.slice(0, query);
  return path === '/api/health' || path === '/api/ready' || !(path === '/api' || path.startsWith('/api/'));
}

/** pino's own test; Fastify's logger when there is none (`logger: false`) has no levels: enabled (it writes nothing anyway). */
function isLevelEnabled(log: FastifyBaseLogger, level: 'error' | 'info' | 'debug'): boolean {
  const pinoLog = log as FastifyBaseLogger & { isLevelEnabled?: (level: string) => boolean };
  return typeof pinoLog.isLevelEnabled === 'function' ? pinoLog.isLevelEnabled(level) : true;
}

function writeRequestLine(request: FastifyRequest, reply: FastifyReply, streamError: Error | undefined, aborted: boolean) {
  const note = noteOf(request);
  if (note.logged) return;
  note.logged = true;
  // An abort's own consequence (the body's stream failing) is not an error of the server.
  const err = aborted && isClientGone(note.error) ? undefined : (streamError ?? note.error);
  const status = reply.statusCode;
  const level = err || (!aborted && status >= 500) ? 'error' : (aborted || status < 400) && isQuiet(request.url) ? 'debug' : 'info';
  // Nothing is built for a line the level leaves out (the health probe's debug lines, at info).
  if (!isLevelEnabled(request.log, level)) return;
  const employeeId = request.auth?.user.employeeId;
  const fields = {
    method: request.method,
    url: boundedUrl(request.url),
    ...(aborted ? { aborted: true } : { statusCode: status }),
    ...(note.code ? { code: note.code } : {}),
    responseTime: Math.round(reply.elapsedTime * 10) / 10,
    ...(employeeId ? { employeeId } : {}),
    remoteAddress: request.ip,
    ...(err ? { err } : {}),
  };
  request.log[level](fields, aborted ? 'request aborted' : 'request completed');
}

/**
 * Fastify's request logging, one line a request: nothing when a request comes in, the line
 * when its response has gone (or the client went away first). Fastify's other lines
 * (a response stream that broke, a failing serializer...) are kept.
 */
export class RequestLogController extends LogController {
  override incomingRequest(request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    // A client that goes away (a phone losing its signal mid-upload) never gets a 'finish'.
    reply.raw.once('close', () => {
      if (!reply.raw.writableFinished) writeRequestLine(request, reply, undefined, true);
    });
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    writeRequestLine(request, reply, error ?? undefined, false);
  }

  override streamError(error: Error, request: FastifyRequest, reply: FastifyReply): void {
    // A download the client stopped: its "aborted" line says so; Fastify's own line only at debug.
    if (this.isLogDisabled(request)) return;
    if ('code' in error && error.code === 'ERR_STREAM_PREMATURE_CLOSE') reply.log.debug({ err: error }, 'stream closed prematurely');
    else super.streamError(error, request, reply);
  }
}

/** Notes the error code of each JSON error body, for the request's line. Register it before the routes. */
export const requestLogging = fp(
  async (app) => {
    app.decorateRequest(NOTE, null);
    app.addHook('preSerialization', (request, reply, payload: unknown, done) => {
      if (reply.statusCode >= 400 && typeof payload === 'object' && payload !== null && 'code' in payload && typeof payload.code === 'string') {
        noteOf(request).code = payload.code.slice(0, 64);
      }
      done(null, payload);
    });
  },
  { name: 'request-logging' },
);

// ---------------------------------------------------------------------------------------------
// The pretty format

const LEVELS: Record<number, { label: string; color: string }> = {
  10: { label: 'TRACE', color: '\x1b[90m' },
  20: { label: 'DEBUG', color: '\x1b[36m' },
  30: { label: 'INFO ', color: '\x1b[32m' },
  40: { label: 'WARN ', color: '\x1b[33m' },
  50: { label: 'ERROR', color: '\x1b[31m' },
  60: { label: 'FATAL', color: '\x1b[1;31m' },
};
const RESET = '\x1b[0m';

/** pino's own fields and the request line's: not repeated as key=value. */
const BASE_FIELDS = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'reqId', 'err']);
const REQUEST_FIELDS = new Set(['method', 'url', 'statusCode', 'aborted', 'code', 'responseTime', 'employeeId', 'remoteAddress']);
const MAX_VALUE_LENGTH = 200;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Control characters (a newline, an escape sequence) shown escaped: one record, one line, no terminal tricks. */
function clean(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => JSON.stringify(c).slice(1, -1));
}

function clip(text: string, max = MAX_VALUE_LENGTH): string {
  return text.length > max ? `${text.slice(0, max)}...` : text;
}

function clock(time: unknown): string {
  const date = typeof time === 'number' ? new Date(time) : new Date();
  return [date.getHours(), date.getMinutes(), date.getSeconds()].map((n) => String(n).padStart(2, '0')).join(':');
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Our request ids are UUIDs: 8 characters tell requests apart on a terminal; warnings and errors show it whole, to be searched for. */
function requestIdText(reqId: unknown, whole: boolean): string | undefined {
  if (typeof reqId !== 'string' && typeof reqId !== 'number') return undefined;
  const id = String(reqId);
  return clean(clip(!whole && UUID.test(id) ? id.slice(0, 8) : id, 64));
}

function valueText(value: unknown): string {
  const text = typeof value === 'string' && /^[^\s"=]+$/.test(value) ? value : JSON.stringify(value) ?? String(value);
  return clean(clip(text));
}

function errorLines(err: unknown): string[] {
  if (!isRecord(err)) return err === undefined ? [] : [`    ${valueText(err)}`];
  const stack = typeof err.stack === 'string' ? err.stack : `${typeof err.type === 'string' ? err.type : 'Error'}: ${String(err.message)}`;
  return stack.split('\n').map((line) => `    ${clean(line)}`);
}

/**
 * One pino record as a readable line:
 *   `07:45:12 INFO  POST /api/inspections/upload 201 183ms 1a2b3c4d TEC2001` (a request)
 *   `07:45:12 WARN  report job failed 3f2a...-full-id job=42` (anything else)
 * and an error's stack indented under it.
 */
export function formatLogRecord(record: Record<string, unknown>, options: { colors: boolean }): string {
  const level = typeof record.level === 'number' ? record.level : 30;
  const known = LEVELS[level] ?? { label: String(level).padEnd(5), color: '' };
  const label = options.colors && known.color ? `${known.color}${known.label}${RESET}` : known.label;
  const id = requestIdText(record.reqId, level >= 40);
  const parts: string[] = [clock(record.time), label];

  const isRequest =
    typeof record.method === 'string' && typeof record.url === 'string' && (typeof record.statusCode === 'number' || record.aborted === true);
  if (isRequest) {
    parts.push(clean(String(record.method)), clean(clip(String(record.url), MAX_LOGGED_URL_LENGTH + 3)));
    parts.push(record.aborted === true ? 'aborted' : String(record.statusCode));
    if (typeof record.code === 'string') parts.push(clean(record.code));
    if (typeof record.responseTime === 'number') parts.push(`${Math.round(record.responseTime)}ms`);
    if (id) parts.push(id);
    if (typeof record.employeeId === 'string') parts.push(clean(record.employeeId));
  } else {
    if (typeof record.msg === 'string' && record.msg) parts.push(clean(clip(record.msg, 1000)));
    if (id) parts.push(id);
  }
  for (const [key, value] of Object.entries(record)) {
    if (BASE_FIELDS.has(key) || (isRequest && REQUEST_FIELDS.has(key)) || value === undefined) continue;
    parts.push(`${clean(key)}=${valueText(value)}`);
  }
  return [parts.join(' '), ...errorLines(record.err)].join('\n') + '\n';
}

/** A pino destination writing each JSON record to `output` as formatLogRecord's line(s). */
export function prettyLogStream(output: LogOutput, options: { colors: boolean }): { write(chunk: string): void } {
  return {
    write(chunk: string) {
      for (const line of chunk.split('\n')) {
        if (!line) continue;
        let record: unknown;
        try {
          record = JSON.parse(line);
        } catch {
          record = undefined;
        }
        output.write(isRecord(record) ? formatLogRecord(record, options) : `${line}\n`);
      }
    },
  };
}
