/**
 * Starts the built server (dist/server/main.js) as a child process on a free port with a
 * scratch DATA_DIR and the demo seed, on PGlite or, given an admin URL, on a scratch
 * PostgreSQL database created for the run. stop() ends the server and removes both.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type { DatabaseKind } from './types.js';

export const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SERVER_ENTRY = path.join(PROJECT_ROOT, 'dist', 'server', 'main.js');
/** Creating a PGlite data dir, migrating and seeding the demo data all happen before listen. */
const START_TIMEOUT_MS = 180_000;
const STOP_TIMEOUT_MS = 20_000;

export interface ServerLogSummary {
  /** Lines the server logged at warn level or above (pino levels 40+), or wrote to stderr. */
  warnings: number;
  errors: number;
  /** The last few of those lines, for the report. */
  recent: string[];
}

export interface RunningServer {
  baseUrl: string;
  pid: number;
  /** The scratch DATA_DIR (removed by stop()). */
  dataDir: string;
  database: DatabaseKind;
  /** The scratch PostgreSQL database (DATABASE_URL of the server); undefined on PGlite. */
  databaseUrl: string | undefined;
  /** PostgreSQL's server_version, or the PGlite package version. */
  databaseVersion: string | null;
  logFile: string;
  /** The whole environment the server was started with (for a command run beside it, e.g. `npm run backup`). */
  env: Readonly<NodeJS.ProcessEnv>;
  /** Warnings and errors the server has logged so far. */
  logSummary(): ServerLogSummary;
  /** Ends the server (SIGTERM, then SIGKILL) and removes the scratch data dir and database. */
  stop(): Promise<void>;
}

export interface StartServerOptions {
  /** A PostgreSQL URL the bench may create and drop a database through; unset = PGlite. */
  adminDatabaseUrl: string | undefined;
  logFile: string;
  log(message: string): void;
  /**
   * Runs after the scratch DATA_DIR and database exist and before the server starts (so that
   * it may open the embedded PGlite, which the server would otherwise hold), e.g. to load
   * generated data. `databaseUrl` is the scratch PostgreSQL database, undefined on PGlite.
   */
  prepare?(target: { databaseUrl: string | undefined; dataDir: string }): Promise<void>;
  /** Added to the server's environment last (e.g. BLOB_STORE=s3 and S3_*). */
  extraEnv?: Record<string, string>;
}

export async function startServer(options: StartServerOptions): Promise<RunningServer> {
  if (!existsSync(SERVER_ENTRY)) {
    throw new Error(`${path.relative(PROJECT_ROOT, SERVER_ENTRY)} not found: run \`npm run bench\`, which builds first`);
  }
  const cleanups: Array<() => Promise<void>> = [];
  const cleanUp = async () => {
    for (const step of cleanups.reverse()) {
      try {
        await step();
      } catch (error) {
        options.log(`cleanup: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    cleanups.length = 0;
  };

  try {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'hkmi-bench-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));

    let database: DatabaseKind = 'pglite';
    let databaseUrl: string | undefined;
    let databaseVersion: string | null = pgliteVersion();
    if (options.adminDatabaseUrl) {
      const scratch = await createScratchDatabase(options.adminDatabaseUrl);
      cleanups.push(() => scratch.drop());
      database = 'postgres';
      databaseUrl = scratch.url;
      databaseVersion = scratch.serverVersion;
      options.log(`created scratch database ${scratch.name}`);
    }

    if (options.prepare) await options.prepare({ databaseUrl, dataDir });

    const port = await freePort();
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      DEMO: '1',
      // A production build with the demo accounts: refused unless said twice (server/config.ts).
      ALLOW_DEMO_IN_PRODUCTION: '1',
      LOG_LEVEL: 'warn',
    };
    // Nothing from the caller's shell may point the server at another database or add users.
    delete env.DATABASE_URL;
    delete env.ADMIN_EMPLOYEE_ID;
    delete env.ADMIN_PASSWORD;
    // Nor put its photos elsewhere or start scheduled backups: the scenarios say where.
    for (const name of Object.keys(env)) {
      if (name === 'BLOB_STORE' || name.startsWith('S3_') || name.startsWith('BACKUP_')) delete env[name];
    }
    if (databaseUrl) env.DATABASE_URL = databaseUrl;
    Object.assign(env, options.extraEnv);

    const child = spawn(process.execPath, [SERVER_ENTRY], { cwd: PROJECT_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const pid = child.pid;
    if (pid === undefined) throw new Error('could not start the server process');
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    cleanups.push(() => stopChild(child, exited));

    const watcher = watchOutput(child, options.logFile);
    const baseUrl = `http://127.0.0.1:${port}`;
    const started = Date.now();
    await waitForHealth(baseUrl, exited, watcher);
    options.log(`server ready on ${baseUrl} (${database}) after ${((Date.now() - started) / 1000).toFixed(1)} s`);

    return {
      baseUrl,
      pid,
      dataDir,
      database,
      databaseUrl,
      databaseVersion,
      logFile: options.logFile,
      env,
      logSummary: () => watcher.summary(),
      async stop() {
        await cleanUp();
        await watcher.close();
      },
    };
  } catch (error) {
    await cleanUp();
    throw error;
  }
}

function pgliteVersion(): string | null {
  try {
    const file = path.join(PROJECT_ROOT, 'node_modules', '@electric-sql', 'pglite', 'package.json');
    const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
    if (parsed && typeof parsed === 'object' && 'version' in parsed && typeof parsed.version === 'string') {
      return `PGlite ${parsed.version}`;
    }
  } catch {
    // Only for the report.
  }
  return null;
}

interface ScratchDatabase {
  name: string;
  url: string;
  serverVersion: string | null;
  drop(): Promise<void>;
}

async function createScratchDatabase(adminUrl: string): Promise<ScratchDatabase> {
  const name = `hkmi_bench_${Date.now()}_${process.pid}`;
  const withAdmin = async <T>(work: (client: pg.Client) => Promise<T>): Promise<T> => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.end();
    }
  };
  const serverVersion = await withAdmin(async (client) => {
    // The name is made above from digits and underscores only; identifiers cannot be bound.
    await client.query(`CREATE DATABASE "${name}"`);
    const result = await client.query<{ server_version: string }>('SHOW server_version');
    return result.rows[0] ? `PostgreSQL ${result.rows[0].server_version}` : null;
  });
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    serverVersion,
    drop: () =>
      withAdmin(async (client) => {
        try {
          await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
        } catch {
          // PostgreSQL before 13 has no FORCE; the server has exited by now anyway.
          await client.query(`DROP DATABASE IF EXISTS "${name}"`);
        }
      }),
  };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => (port ? resolve(port) : reject(new Error('no free port'))));
    });
  });
}

interface OutputWatcher {
  summary(): ServerLogSummary;
  close(): Promise<void>;
}

/** Copies the server's output to the log file and counts warnings and errors in it. */
function watchOutput(child: ChildProcess, logFile: string): OutputWatcher {
  const file = createWriteStream(logFile, { flags: 'w' });
  const state: ServerLogSummary = { warnings: 0, errors: 0, recent: [] };
  const note = (line: string, level: 'warn' | 'error') => {
    if (level === 'warn') state.warnings += 1;
    else state.errors += 1;
    state.recent.push(line.length > 400 ? `${line.slice(0, 400)}...` : line);
    if (state.recent.length > 10) state.recent.shift();
  };
  const follow = (stream: NodeJS.ReadableStream | null, isStderr: boolean) => {
    if (!stream) return;
    let rest = '';
    stream.on('data', (chunk: Buffer) => {
      file.write(chunk);
      const lines = (rest + chunk.toString('utf8')).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) {
        if (!line.trim()) continue;
        const level = pinoLevel(line);
        if (level !== null) {
          if (level >= 50) note(line, 'error');
          else if (level >= 40) note(line, 'warn');
        } else if (isStderr) {
          note(line, 'error');
        }
      }
    });
  };
  follow(child.stdout, false);
  follow(child.stderr, true);
  return {
    summary: () => ({ ...state, recent: [...state.recent] }),
    close: () => new Promise((resolve) => file.end(() => resolve())),
  };
}

function pinoLevel(line: string): number | null {
  if (!line.startsWith('{')) return null;
  try {
    const parsed: unknown = JSON.parse(line);
    if (parsed && typeof parsed === 'object' && 'level' in parsed && typeof parsed.level === 'number') return parsed.level;
  } catch {
    // Not a log record.
  }
  return null;
}

async function waitForHealth(baseUrl: string, exited: Promise<number | null>, watcher: OutputWatcher): Promise<void> {
  let exitCode: number | null | undefined;
  void exited.then((code) => {
    exitCode = code;
  });
  const deadline = Date.now() + START_TIMEOUT_MS;
  let last = 'no answer yet';
  while (Date.now() < deadline) {
    if (exitCode !== undefined) {
      const output = watcher.summary().recent.join('\n');
      throw new Error(`the server exited with code ${String(exitCode)} before it was ready${output ? `:\n${output}` : ''}`);
    }
    try {
      const response = await fetch(`${baseUrl}/api/health`, { signal: AbortSignal.timeout(2_000) });
      if (response.status === 200) return;
      last = `HTTP ${response.status}`;
    } catch (error) {
      last = error instanceof Error ? error.message : String(error);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`the server did not answer GET /api/health with 200 within ${START_TIMEOUT_MS / 1000} s (last: ${last})`);
}

async function stopChild(child: ChildProcess, exited: Promise<number | null>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timedOut = await Promise.race([
    exited.then(() => false),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(true), STOP_TIMEOUT_MS).unref()),
  ]);
  if (timedOut) {
    child.kill('SIGKILL');
    await exited;
  }
}
