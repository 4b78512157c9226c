/**
 * The real server process for tests that must kill it (SIGKILL) and start it again on the same
 * data: `node --import tsx server/main.ts`, as `npm start` runs it, on a free port of 127.0.0.1.
 * A test file calls `afterAll(cleanUpServerProcesses)`: every child still alive is killed and
 * every folder made with `tempDir` removed.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { PROJECT_ROOT } from '../paths.js';

/** Every wait is for a condition; this only bounds a run that went wrong (a busy 2-core box is slow). */
export const WAIT_MS = 300_000;

const dirs: string[] = [];
const children: ChildProcess[] = [];

/** Kills the children still running and removes the temporary folders (for afterAll). */
export async function cleanUpServerProcesses(): Promise<void> {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
}

/** A fresh folder under the system's temp folder, removed by cleanUpServerProcesses. */
export async function tempDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

export interface ServerExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface ServerProcess {
  child: ChildProcess;
  /** http://127.0.0.1:<port> */
  base: string;
  /** What the process wrote to stdout and stderr so far. */
  output: () => string;
  exited: Promise<ServerExit>;
}

/**
 * Starts the server with only PATH and these settings in its environment (LOG_LEVEL warn unless
 * given) and resolves once /api/health answers 200.
 */
export async function startServer(env: Record<string, string>): Promise<ServerProcess> {
  const port = await freePort();
  let output = '';
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(PROJECT_ROOT, 'server', 'main.ts')], {
    cwd: PROJECT_ROOT,
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'warn', PORT: String(port), HOST: '127.0.0.1', ...env },
  });
  children.push(child);
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<ServerExit>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  const server = { child, base: `http://127.0.0.1:${port}`, output: () => output, exited };
  await until('the server to answer /api/health', async () => {
    if (child.exitCode !== null) throw new Error(`the server exited early:\n${output}`);
    const health = await fetch(`${server.base}/api/health`).catch(() => undefined);
    return health?.status === 200;
  });
  return server;
}

/** Polls `probe` (every 100 ms) until it returns a value other than undefined, null or false. */
export async function until<T>(what: string, probe: () => Promise<T | undefined | null | false>, timeoutMs = WAIT_MS): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== null && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Signs in with a password; resolves to the `hkmi_session=...` cookie to send. */
export async function signIn(server: ServerProcess, credentials: { employeeId: string; password: string }): Promise<string> {
  const response = await fetch(`${server.base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(credentials),
  });
  expect(response.status, await response.clone().text()).toBe(200);
  const cookie = response.headers.getSetCookie().find((c) => c.startsWith('hkmi_session='));
  if (!cookie) throw new Error('sign-in set no session cookie');
  return cookie.split(';')[0] ?? '';
}

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `npm run backup` / `npm run restore`'s program with only PATH and these settings. */
export async function runBackupCli(args: string[], env: Record<string, string>): Promise<CliRun> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(PROJECT_ROOT, 'server', 'backup-cli.ts'), ...args], {
    cwd: PROJECT_ROOT,
    env: { PATH: process.env.PATH ?? '', ...env },
  });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('exit', (exitCode) => resolve(exitCode)));
  return { code, stdout, stderr };
}
