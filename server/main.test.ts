/**
 * The start itself, as `npm start` runs it: a real process that reads the environment,
 * opens the database, migrates, listens and shuts down cleanly on SIGTERM.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from './paths.js';
import { createPostgresTestDatabase, testDatabaseKind } from './test/test-database.js';

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

function start(env: Record<string, string>): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
  let output = '';
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(PROJECT_ROOT, 'server', 'main.ts')], {
    cwd: PROJECT_ROOT,
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'warn', ...env },
  });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

async function waitForHealth(port: number, child: ChildProcess): Promise<Response> {
  // Bounds a start that went wrong; a first start seeding demo data on a busy box takes a while.
  const deadline = Date.now() + 240_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error('server exited early');
    try {
      return await fetch(`http://127.0.0.1:${port}/api/health`);
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  throw new Error('server did not answer in time');
}

describe('server start', () => {
  it('stops with one line naming a bad variable', async () => {
    const { exited, output } = start({ PORT: 'eighty' });
    expect(await exited).toBe(1);
    expect(output().trim()).toBe('Invalid configuration: PORT must be a port number');
  });

  it('starts, makes the configured admin, serves the API and shuts down cleanly on SIGTERM', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'hkmi-start-'));
    dirs.push(dataDir);
    const port = await freePort();
    const env: Record<string, string> = {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DEMO: 'false',
      ADMIN_EMPLOYEE_ID: 'BOOT01',
      ADMIN_PASSWORD: 'first admin pw',
    };
    if (testDatabaseKind === 'postgres') env.DATABASE_URL = await createPostgresTestDatabase();
    const server = start(env);
    const health = await waitForHealth(port, server.child);
    expect(health.status).toBe(200);
    expect(server.output()).toContain(`ready at http://localhost:${port}`);
    expect(server.output()).toContain('Created admin BOOT01');

    const login = await fetch(`http://127.0.0.1:${port}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ employeeId: 'BOOT01', password: 'first admin pw' }),
    });
    expect(login.status).toBe(200);
    expect(((await login.json()) as { user: { role: string } }).user.role).toBe('Admin');

    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    if (testDatabaseKind === 'pglite') expect(existsSync(path.join(dataDir, 'pglite.lock'))).toBe(false);
  });

  it('refuses the demo accounts after a restart in production on the same data, and says so once', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'hkmi-demo-prod-'));
    dirs.push(dataDir);
    const env: Record<string, string> = { HOST: '127.0.0.1', DATA_DIR: dataDir };
    if (testDatabaseKind === 'postgres') env.DATABASE_URL = await createPostgresTestDatabase();
    const post = (port: number, url: string, body: object) =>
      fetch(`http://127.0.0.1:${port}${url}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

    // A trial in demo mode: the demo admin signs in with the published password.
    const trialPort = await freePort();
    const trial = start({ ...env, PORT: String(trialPort), DEMO: 'true' });
    expect((await waitForHealth(trialPort, trial.child)).status).toBe(200);
    expect((await post(trialPort, '/api/auth/login', { employeeId: 'ADM1001', password: 'demo1234' })).status).toBe(200);
    trial.child.kill('SIGTERM');
    expect(await trial.exited).toBe(0);

    // Production on the same data, demo mode off by default: refused as a wrong password.
    const port = await freePort();
    const production = start({ ...env, PORT: String(port), NODE_ENV: 'production' });
    expect((await waitForHealth(port, production.child)).status).toBe(200);
    const refused = await post(port, '/api/auth/login', { employeeId: 'ADM1001', password: 'demo1234' });
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { code: string }).code).toBe('INVALID_CREDENTIALS');
    expect((await fetch(`http://127.0.0.1:${port}/api/auth/demo-accounts`)).status).toBe(404);
    const said = production.output().split('\n').filter((line) => line.includes('demo accounts are disabled'));
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(/"msg":"\d+ demo accounts are disabled: demo mode is off, so they cannot sign in"/);
    production.child.kill('SIGTERM');
    expect(await production.exited).toBe(0);

    // And production refuses to start in demo mode unless told twice.
    const refusedStart = start({ ...env, PORT: String(await freePort()), NODE_ENV: 'production', DEMO: 'true' });
    expect(await refusedStart.exited).toBe(1);
    expect(refusedStart.output()).toContain('Invalid configuration: DEMO must not be on in production');
  }, 480_000);
});
