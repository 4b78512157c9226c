/**
 * A stopping instance drains, as `npm start` runs it: an upload already under way when SIGTERM
 * comes is answered 201 and its record kept, while GET /api/ready answers 503 (the instance
 * still takes connections, so a load balancer sees it is going); once nothing is in flight the
 * instance closes: new connections are refused and the process ends with 0.
 */
import { request } from 'node:http';
import { createConnection } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { readinessResponseSchema } from '../../../common/schemas/auth.js';
import { uploadResponseSchema } from '../../../common/schemas/inspection.js';
import { makeSubmissions } from '../../test/outbox.js';
import { uploadForm } from '../../test/photos.js';
import { cleanUpServerProcesses, signIn, startServer, tempDir, until } from '../../test/server-process.js';
import { createPostgresTestDatabase, testDatabaseKind } from '../../test/test-database.js';

afterAll(cleanUpServerProcesses);

const ADMIN = { employeeId: 'DRAIN01', password: 'drain admin pw' };

interface Answer {
  status: number;
  body: string;
}

/**
 * The error code of a new connection to the port, or undefined when one was accepted (and is
 * closed again) or reset (taken into the listen queue just as the server stopped listening).
 */
function connectionError(host: string, port: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    const socket = createConnection({ host, port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(undefined);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNRESET' ? undefined : (error.code ?? error.message)));
  });
}

describe('a stopping instance', () => {
  it('says it is not ready, finishes the upload in flight, then refuses new connections', async () => {
    const env: Record<string, string> = { DATA_DIR: await tempDir('hkmi-drain-'), DEMO: 'false', ADMIN_EMPLOYEE_ID: ADMIN.employeeId, ADMIN_PASSWORD: ADMIN.password };
    if (testDatabaseKind === 'postgres') env.DATABASE_URL = await createPostgresTestDatabase();
    const server = await startServer(env);
    const cookie = await signIn(server, ADMIN);
    expect((await fetch(`${server.base}/api/ready`)).status).toBe(200);

    const [submission] = await makeSubmissions(1, { technicianId: ADMIN.employeeId, width: 800, height: 600 });
    if (!submission) throw new Error('no submission');
    const form = new Response(uploadForm(submission.metadata, submission.photo));
    const body = Buffer.from(await form.arrayBuffer());
    const contentType = form.headers.get('content-type') ?? '';

    // The upload starts: headers and half the body. "Expect: 100-continue" makes the server
    // say when it has the request, so the stop below surely comes while it is in flight.
    const url = new URL(`${server.base}/api/inspections/upload`);
    const upload = request({
      host: url.hostname,
      port: url.port,
      path: url.pathname,
      method: 'POST',
      headers: { cookie, 'content-type': contentType, 'content-length': String(body.length), expect: '100-continue' },
    });
    const answered = new Promise<Answer>((resolve, reject) => {
      upload.on('response', (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
      });
      upload.on('error', reject);
    });
    await new Promise<void>((resolve) => upload.once('continue', resolve));
    const half = Math.floor(body.length / 2);
    await new Promise<void>((resolve, reject) => upload.write(body.subarray(0, half), (error) => (error ? reject(error) : resolve())));

    server.child.kill('SIGTERM');
    // Not ready, over a new connection: the instance still takes them while it drains.
    const notReady = await until('readiness to answer 503 while draining', async () => {
      const response = await fetch(`${server.base}/api/ready`);
      return response.status === 503 ? readinessResponseSchema.parse(await response.json()) : undefined;
    });
    expect(notReady).toMatchObject({ status: 'not-ready', checks: { lifecycle: 'draining', database: 'ok' } });
    expect(server.child.exitCode).toBeNull();

    // The rest of the photo: the upload that began before the stop is stored.
    upload.end(body.subarray(half));
    const answer = await answered;
    expect(answer.status, answer.body).toBe(201);
    expect(uploadResponseSchema.parse(JSON.parse(answer.body))).toMatchObject({ imageHash: submission.hash, duplicate: false });

    // Then it closes: a new connection is refused, and the process ends cleanly.
    // (A new TCP connection each time: fetch's pool would reuse the probes' kept-alive one.)
    const refused = await until('new connections to be refused', () => connectionError(url.hostname, Number(url.port)));
    expect(refused).toBe('ECONNREFUSED');
    expect(await server.exited).toEqual({ code: 0, signal: null });

    // The record is there after a restart on the same data.
    const again = await startServer(env);
    const cookieAgain = await signIn(again, ADMIN);
    const list = await fetch(`${again.base}/api/inspections`, { headers: { cookie: cookieAgain } });
    expect(((await list.json()) as { logs: Array<{ imageHash?: string }> }).logs.map((log) => log.imageHash)).toContain(submission.hash);
    again.child.kill('SIGTERM');
    expect(await again.exited).toEqual({ code: 0, signal: null });
  }, 600_000);
});
