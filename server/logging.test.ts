/** The logs an operator reads: one line a request, readable in a terminal, JSON lines for a collector. */
import { connect } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { formatLogRecord, loggerOptions, prettyLogStream, RequestLogController, requestLogging } from './logging.js';
import { errors } from './plugins/errors.js';
import { buildTestApp, type TestApp } from './test/build-test-app.js';
import { createUser, signIn } from './test/factories.js';

/** A log destination that keeps what was written. */
function collector() {
  let text = '';
  return {
    write(chunk: string) {
      text += chunk;
    },
    text: () => text,
    lines: () => text.split('\n').filter(Boolean),
    records: () => text.split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>),
    clear() {
      text = '';
    },
  };
}

const ID = '3f2a9c1e-7b4d-4e8a-9c1f-2d3e4f5a6b7c';
// 07:45:12 in the local time zone, which the pretty lines use.
const TIME = new Date(2025, 0, 2, 7, 45, 12).getTime();
const BASE = { time: TIME, pid: 4242, hostname: 'depot-1', reqId: ID };
const ANSI = /\x1b\[/; // eslint-disable-line no-control-regex

describe('the pretty format', () => {
  it('turns a request record into one line: time, level, method, URL, status, duration, short request id, employee ID', () => {
    const record = { ...BASE, level: 30, method: 'POST', url: '/api/inspections/upload', statusCode: 201, responseTime: 183.4, employeeId: 'TEC2001', remoteAddress: '10.0.0.7', msg: 'request completed' };
    expect(formatLogRecord(record, { colors: false })).toBe('07:45:12 INFO  POST /api/inspections/upload 201 183ms 3f2a9c1e TEC2001\n');
  });

  it('gives a refused request its error code on the same single line, with no stack', () => {
    const record = { ...BASE, level: 30, method: 'GET', url: '/api/auth/me', statusCode: 401, code: 'NOT_AUTHENTICATED', responseTime: 2.2, msg: 'request completed' };
    expect(formatLogRecord(record, { colors: false })).toBe('07:45:12 INFO  GET /api/auth/me 401 NOT_AUTHENTICATED 2ms 3f2a9c1e\n');
  });

  it('shows a failed request at ERROR with the whole request id, and the stack indented under it', () => {
    const stack = 'Error: disk on fire\n    at handler (/srv/hkmi/server/features/x.ts:10:11)\n    at next (/srv/hkmi/node_modules/fastify/lib/hooks.js:1:1)';
    const record = {
      ...BASE,
      level: 50,
      method: 'GET',
      url: '/api/reports/42',
      statusCode: 500,
      code: 'INTERNAL',
      responseTime: 12,
      employeeId: 'ADM0001',
      err: { type: 'Error', message: 'disk on fire', stack },
      msg: 'request completed',
    };
    expect(formatLogRecord(record, { colors: false }).split('\n')).toEqual([
      `07:45:12 ERROR GET /api/reports/42 500 INTERNAL 12ms ${ID} ADM0001`,
      '    Error: disk on fire',
      '        at handler (/srv/hkmi/server/features/x.ts:10:11)',
      '        at next (/srv/hkmi/node_modules/fastify/lib/hooks.js:1:1)',
      '',
    ]);
  });

  it('writes any other record as its message and its own fields as key=value', () => {
    const record = { ...BASE, reqId: undefined, level: 40, msg: 'report job failed', job: 42, kind: 'machine report' };
    expect(formatLogRecord(record, { colors: false })).toBe('07:45:12 WARN  report job failed job=42 kind="machine report"\n');
  });

  it('colours the level only when asked (a TTY), and writes no escape codes otherwise', () => {
    const record = { ...BASE, level: 50, method: 'GET', url: '/api/x', statusCode: 500, responseTime: 1, msg: 'request completed' };
    expect(formatLogRecord(record, { colors: false })).not.toMatch(ANSI);
    expect(formatLogRecord(record, { colors: true })).toContain('\x1b[31mERROR\x1b[0m');
  });

  it('keeps one record on one line: a newline or an escape sequence in a value is shown escaped', () => {
    const record = { ...BASE, reqId: undefined, level: 30, msg: 'hello\nworld \x1b[2J', who: 'a\nb' };
    const line = formatLogRecord(record, { colors: false });
    expect(line).toBe('07:45:12 INFO  hello\\nworld \\u001b[2J who="a\\nb"\n');
  });

  it('as a stream, rewrites each JSON line and passes anything else through', () => {
    const out = collector();
    const stream = prettyLogStream(out, { colors: false });
    stream.write(`${JSON.stringify({ ...BASE, reqId: undefined, level: 30, msg: 'Server listening at http://127.0.0.1:5000' })}\n`);
    stream.write('not json\n');
    expect(out.lines()).toEqual(['07:45:12 INFO  Server listening at http://127.0.0.1:5000', 'not json']);
  });
});

describe('one line a request, from the real app', () => {
  const out = collector();
  let t: TestApp;
  let cookie: string;

  beforeAll(async () => {
    t = await buildTestApp({}, { logger: { level: 'info', stream: out } });
    await createUser(t.database.db, { role: 'Technician', employeeId: 'TEC2001' });
    cookie = await signIn(t.app, 'TEC2001');
  });
  afterAll(async () => t.close());
  beforeEach(() => out.clear());

  it('logs a signed-in request once, when answered: status, request id, employee ID, duration', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/auth/me?x=1', headers: { cookie } });
    expect(response.statusCode).toBe(200);
    const records = out.records();
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      level: 30,
      msg: 'request completed',
      method: 'GET',
      url: '/api/auth/me?x=1',
      statusCode: 200,
      reqId: response.headers['x-request-id'],
      employeeId: 'TEC2001',
    });
    expect(records[0]?.responseTime).toEqual(expect.any(Number));
    // No headers (the session cookie) in the line.
    expect(out.text()).not.toContain('hkmi_session');
  });

  it('logs a refused request as one info line with its status and error code, no stack', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/auth/me' });
    expect(response.statusCode).toBe(401);
    const records = out.records();
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ level: 30, statusCode: 401, code: 'NOT_AUTHENTICATED', reqId: response.json<{ requestId: string }>().requestId });
    expect(records[0]).not.toHaveProperty('err');
  });

  it('gives the error code of a bad JSON body and of an unknown API path', async () => {
    const bad = await t.app.inject({ method: 'POST', url: '/api/auth/login', headers: { 'content-type': 'application/json' }, payload: '{"employeeId":' });
    const unknown = await t.app.inject({ method: 'GET', url: '/api/no-such-thing' });
    expect([bad.statusCode, unknown.statusCode]).toEqual([400, 404]);
    expect(out.records().map((r) => [r.url, r.statusCode, r.code])).toEqual([
      ['/api/auth/login', 400, 'MALFORMED_JSON'],
      ['/api/no-such-thing', 404, 'ROUTE_NOT_FOUND'],
    ]);
  });

  it('keeps the health probe out of the info lines', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(200);
    expect(out.lines()).toEqual([]);
  });

  it('cuts a very long URL', async () => {
    await t.app.inject({ method: 'GET', url: `/api/no-such-thing?q=${'a'.repeat(5000)}` });
    const url = String(out.records()[0]?.url);
    expect(url.length).toBeLessThan(210);
    expect(url.endsWith('...')).toBe(true);
  });
});

describe('an unexpected error', () => {
  const out = collector();
  let app: FastifyInstance;

  beforeAll(async () => {
    // The app's own logging, error handler and a route that fails as a bug would.
    app = Fastify({ logger: { level: 'info', stream: out }, logController: new RequestLogController() });
    await app.register(requestLogging);
    await app.register(errors);
    app.get('/api/broken', async () => {
      throw new Error('disk on fire');
    });
    await app.ready();
  });
  afterAll(async () => app.close());
  beforeEach(() => out.clear());

  it('is one error line with the request id, status 500 and the stack', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/broken' });
    expect(response.statusCode).toBe(500);
    const { requestId } = response.json<{ requestId: string }>();
    const records = out.records();
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ level: 50, reqId: requestId, method: 'GET', url: '/api/broken', statusCode: 500, code: 'INTERNAL' });
    expect((records[0]?.err as { stack: string }).stack).toContain('disk on fire');
  });
});

describe('an unexpected error in the pretty format', () => {
  const out = collector();
  let app: FastifyInstance;

  beforeAll(async () => {
    app = Fastify({ logger: loggerOptions({ level: 'info', format: 'pretty', output: out, colors: false }), logController: new RequestLogController() });
    await app.register(requestLogging);
    await app.register(errors);
    app.get('/api/broken', async () => {
      throw new Error('disk on fire');
    });
    await app.ready();
  });
  afterAll(async () => app.close());

  it('reads as an ERROR line with the whole request id and the stack indented under it', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/broken' });
    const { requestId } = response.json<{ requestId: string }>();
    const [line, ...stack] = out.lines();
    expect(line).toMatch(new RegExp(`^\\d\\d:\\d\\d:\\d\\d ERROR GET /api/broken 500 INTERNAL \\d+ms ${requestId}$`));
    expect(stack[0]).toBe('    Error: disk on fire');
    expect(stack.length).toBeGreaterThan(1);
    expect(stack.slice(1).every((l) => l.startsWith('        at '))).toBe(true);
    expect(out.text()).not.toMatch(ANSI);
  });
});

describe('a client that goes away mid-request', () => {
  const out = collector();
  let app: FastifyInstance;
  let port: number;

  beforeAll(async () => {
    app = Fastify({ logger: { level: 'info', stream: out }, logController: new RequestLogController() });
    await app.register(requestLogging);
    await app.register(errors);
    // Read as the photo upload reads its file: a stream, whose failure reaches the error handler as unexpected.
    app.addContentTypeParser('application/octet-stream', (_request, payload, done) => done(null, payload));
    app.post('/api/slow-body', async (request) => {
      let bytes = 0;
      for await (const chunk of request.body as AsyncIterable<Buffer>) bytes += chunk.length;
      return { bytes };
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    port = typeof address === 'object' && address ? address.port : 0;
  });
  afterAll(async () => app.close());

  it('is one info line saying "aborted", not an error with a stack', async () => {
    out.clear();
    // Half a body, then the connection drops, as a phone losing its signal mid-upload does.
    await new Promise<void>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.write('POST /api/slow-body HTTP/1.1\r\nHost: x\r\nContent-Type: application/octet-stream\r\nContent-Length: 1000\r\n\r\nhalf a photo');
        setTimeout(() => socket.destroy(), 100);
      });
      socket.on('close', () => resolve());
      socket.on('error', reject);
    });
    await waitFor(() => (out.records().length > 0 ? true : undefined));
    // Whatever the handler's failed read of the body does afterwards adds no line.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const records = out.records();
    expect(records).toEqual([expect.objectContaining({ level: 30, method: 'POST', url: '/api/slow-body', aborted: true, msg: 'request aborted' })]);
    expect(records[0]).not.toHaveProperty('err');
  });
});

async function waitFor<T>(probe: () => T | undefined): Promise<T> {
  for (let i = 0; i < 100; i += 1) {
    const value = probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('nothing was logged');
}
