/**
 * What a client controls at the edge of the server and must not be believed blindly: the
 * X-Forwarded-For behind a proxy, the request ID it sends, and how slowly it sends a request.
 */
import { connect } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';
import { auditLog, sessions } from './db/schema.js';
import { buildTestApp, type TestApp } from './test/build-test-app.js';
import { TEST_PASSWORD, createUser, signIn } from './test/factories.js';

const apps: TestApp[] = [];
afterAll(async () => {
  for (const t of apps) await t.close();
});

/** A log destination that keeps the JSON lines written. */
function collector() {
  let text = '';
  return {
    write(chunk: string) {
      text += chunk;
    },
    records: () => text.split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}

describe('TRUST_PROXY=1 (one reverse proxy in front)', () => {
  it('takes the address the proxy saw, not the one a client wrote into X-Forwarded-For', async () => {
    const log = collector();
    const t = await buildTestApp({ trustProxy: loadConfig({ TRUST_PROXY: '1' }).trustProxy }, { logger: { level: 'info', stream: log } });
    apps.push(t);
    await createUser(t.database.db, { employeeId: 'TECPROXY' });
    // The client behind the proxy is 203.0.113.7; it writes a new address of its own choosing
    // into X-Forwarded-For with every guess, and the proxy (127.0.0.1) appends the real one.
    const viaProxy = (i: number, employeeId: string, password: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        remoteAddress: '127.0.0.1',
        headers: { 'x-forwarded-for': `198.51.100.${i % 250}, 203.0.113.7` },
        payload: { employeeId, password },
      });
    for (let i = 0; i < 30; i++) expect((await viaProxy(i, `NOBODY${i}`, 'guess')).statusCode).toBe(401);
    // The per-address limit holds for the real address, however the written one changes.
    expect((await viaProxy(31, 'TECPROXY', TEST_PASSWORD)).statusCode).toBe(429);
    // Another client behind the same proxy is not affected, and its session records its own address.
    const other = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      remoteAddress: '127.0.0.1',
      headers: { 'x-forwarded-for': '203.0.113.99, 203.0.113.8' },
      payload: { employeeId: 'TECPROXY', password: TEST_PASSWORD },
    });
    expect(other.statusCode).toBe(200);
    const [session] = await t.database.db.select({ ip: sessions.ipAddress }).from(sessions);
    expect(session?.ip).toBe('203.0.113.8');
    // The log names the real client, never the written one.
    const logged = log.records().filter((r) => r.url === '/api/auth/login').map((r) => r.remoteAddress);
    expect(new Set(logged)).toEqual(new Set(['203.0.113.7', '203.0.113.8']));
  });
});

describe('the request ID a client sends', () => {
  it('is kept in a plain shape, and replaced otherwise before it reaches the logs and the audit trail', async () => {
    const log = collector();
    const t = await buildTestApp({}, { logger: { level: 'info', stream: log } });
    apps.push(t);
    await createUser(t.database.db, { role: 'Admin', employeeId: 'ADMRID' });
    const admin = await signIn(t.app, 'ADMRID');
    const addUser = (requestId: string, employeeId: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/users',
        headers: { cookie: admin, 'x-request-id': requestId },
        payload: { employeeId, name: 'Someone', phone: '9876543210' },
      });

    const kept = await addUser('lb-7f3a9c.01:2', 'TECRID1');
    expect(kept.statusCode).toBe(201);
    expect(kept.headers['x-request-id']).toBe('lb-7f3a9c.01:2');

    const hostile = ['<script>alert(1)</script>', 'x'.repeat(65), 'id with spaces', 'ünïcode', '{"level":60}'];
    for (const [i, requestId] of hostile.entries()) {
      const response = await addUser(requestId, `TECRID${i + 2}`);
      expect(response.statusCode, requestId).toBe(201);
      const given = String(response.headers['x-request-id']);
      expect(given, requestId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      const [entry] = await t.database.db.select({ requestId: auditLog.requestId }).from(auditLog).where(eq(auditLog.entityId, `TECRID${i + 2}`));
      expect(entry?.requestId).toBe(given);
    }
    const logged = JSON.stringify(log.records());
    for (const requestId of hostile) expect(logged).not.toContain(JSON.stringify(requestId).slice(1, -1));
  });
});

describe('REQUEST_TIMEOUT', () => {
  it('answers 408 and closes a request whose body never finishes arriving, and goes on serving', async () => {
    const t = await buildTestApp({ requestTimeoutSeconds: 1 });
    apps.push(t);
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = new URL(address);
    const socket = connect(Number(port), '127.0.0.1');
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.write('POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"employeeId":');
    // Nothing more is sent: the server gives up on its own (Node checks a few times a second here).
    await closed;
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toEqual({
      code: 'REQUEST_TIMEOUT',
      message: 'The request took too long to arrive. Please try again',
    });
    expect((await fetch(`${address}/api/health`)).status).toBe(200);
  });
});
