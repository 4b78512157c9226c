/** Starts the built server as a child process on a free port with a scratch DATA_DIR and database and the demo seed; stop() removes both. */
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import pg from 'pg';
import { PROJECT_ROOT } from '../../server/paths.js';
import type { DatabaseKind } from './types.js';

export { PROJECT_ROOT };
const SERVER_ENTRY = path.join(PROJECT_ROOT, 'dist', 'server', 'main.js');
const START_TIMEOUT_MS = 180_000;

export const serverLogFile = (scenario?: string) => path.join(PROJECT_ROOT, 'bench', scenario ? `server-${scenario}.log` : 'server.log');

export const packageVersion = (file: string): string | null => (JSON.parse(readFileSync(file, 'utf8')) as { version?: string }).version ?? null;

export interface ServerLogSummary {
  warnings: number;
  errors: number;
  recent: string[];
}

export type RunningServer = Awaited<ReturnType<typeof startServer>>;

export interface StartServerOptions {
  adminDatabaseUrl: string | undefined;
  logFile: string;
  log(message: string): void;
  prepare?(target: { databaseUrl: string | undefined; dataDir: string }): Promise<void>;
  extraEnv?: Record<string, string>;
}

export async function startServer(options: StartServerOptions) {
  if (!existsSync(SERVER_ENTRY)) throw new Error(`${path.relative(PROJECT_ROOT, SERVER_ENTRY)} not found: run \`npm run bench\`, which builds first`);
  const cleanups: Array<() => Promise<unknown>> = [];
  const cleanUp = async () => {
    for (const step of cleanups.splice(0).reverse()) {
      await step().catch((error: unknown) => options.log(`cleanup: ${error instanceof Error ? error.message : String(error)}`));
    }
  };
  try {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'hkmi-bench-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    let databaseUrl: string | undefined;
    let databaseVersion = `PGlite ${packageVersion(path.join(PROJECT_ROOT, 'node_modules', '@electric-sql', 'pglite', 'package.json'))}`;
    if (options.adminDatabaseUrl) {
      const scratch = await createScratchDatabase(options.adminDatabaseUrl);
      cleanups.push(scratch.drop);
      ({ url: databaseUrl, serverVersion: databaseVersion } = scratch);
      options.log(`created scratch database ${scratch.name}`);
    }
    await options.prepare?.({ databaseUrl, dataDir });
    const port = await freePort();
    const env: NodeJS.ProcessEnv = { ...process.env };
    // Nothing from the caller's shell may point the server at another database, add users, put its photos elsewhere or start backups.
    for (const name of Object.keys(env)) {
      if (/^(DATABASE_URL|ADMIN_EMPLOYEE_ID|ADMIN_PASSWORD|BLOB_STORE|S3_.*|BACKUP_.*)$/.test(name)) delete env[name];
    }
    Object.assign(env, {
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      DEMO: '1',
      // A production build with the demo accounts: refused unless said twice (server/config.ts).
      ALLOW_DEMO_IN_PRODUCTION: '1',
      LOG_LEVEL: 'warn',
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      ...options.extraEnv,
    });
    // E.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`: a profile of the server, written when it exits (README).
    const nodeOptions = (process.env.BENCH_SERVER_NODE_OPTIONS ?? '').split(/\s+/).filter(Boolean);
    const child = spawn(process.execPath, [...nodeOptions, SERVER_ENTRY], { cwd: PROJECT_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    if (child.pid === undefined) throw new Error('could not start the server process');
    let exitCode: number | null | undefined;
    const exited = new Promise<void>((resolve) =>
      child.once('exit', (code) => {
        exitCode = code;
        resolve();
      }),
    );
    cleanups.push(async () => {
      if (exitCode !== undefined) return;
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 20_000);
      await exited;
      clearTimeout(killer);
    });
    const logFile = createWriteStream(options.logFile);
    cleanups.unshift(() => new Promise((resolve) => logFile.end(resolve)));
    const summary: ServerLogSummary = { warnings: 0, errors: 0, recent: [] };
    for (const stream of [child.stdout, child.stderr]) {
      stream.on('data', (chunk: Buffer) => logFile.write(chunk));
      createInterface({ input: stream }).on('line', (line) => {
        const level = /^\{.*?"level":(\d+)/.exec(line)?.[1];
        // pino's JSON lines at warn (40) and error (50) and up; any other line on stderr is an error.
        const kind = level ? (Number(level) >= 50 ? 'errors' : Number(level) >= 40 ? 'warnings' : null) : stream === child.stderr && line.trim() ? 'errors' : null;
        if (!kind) return;
        summary[kind] += 1;
        summary.recent = [...summary.recent, line.length > 400 ? `${line.slice(0, 400)}...` : line].slice(-10);
      });
    }
    const baseUrl = `http://127.0.0.1:${port}`;
    const started = Date.now();
    let last = 'no answer yet';
    for (;;) {
      if (exitCode !== undefined) throw new Error(`the server exited with code ${String(exitCode)} before it was ready:\n${summary.recent.join('\n')}`);
      if (Date.now() - started > START_TIMEOUT_MS) throw new Error(`the server did not answer GET /api/health with 200 within ${START_TIMEOUT_MS / 1000} s (last: ${last})`);
      const response = await fetch(`${baseUrl}/api/health`, { signal: AbortSignal.timeout(2_000) }).catch((error: Error) => error);
      if (!(response instanceof Error) && response.status === 200) break;
      last = response instanceof Error ? response.message : `HTTP ${response.status}`;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const database: DatabaseKind = databaseUrl ? 'postgres' : 'pglite';
    options.log(`server ready on ${baseUrl} (${database}) after ${((Date.now() - started) / 1000).toFixed(1)} s`);
    const logSummary = (): ServerLogSummary => ({ ...summary, recent: [...summary.recent] });
    return { baseUrl, pid: child.pid, dataDir, database, databaseUrl, databaseVersion, env: env as Readonly<NodeJS.ProcessEnv>, logSummary, stop: cleanUp };
  } catch (error) {
    await cleanUp();
    throw error;
  }
}

async function createScratchDatabase(adminUrl: string) {
  const name = `hkmi_bench_${Date.now()}_${process.pid}`;
  const asAdmin = async <T>(work: (client: pg.Client) => Promise<T>): Promise<T> => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    return work(client).finally(() => client.end());
  };
  // The name is made of digits and underscores only: identifiers cannot be bound.
  const serverVersion = await asAdmin(async (client) => {
    await client.query(`CREATE DATABASE "${name}"`);
    return `PostgreSQL ${(await client.query<{ server_version: string }>('SHOW server_version')).rows[0]?.server_version}`;
  });
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  // FORCE: a client the server left open must not keep the database.
  const drop = () => asAdmin((client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
  return { name, url: url.toString(), serverVersion, drop };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer().once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no free port'))));
    });
  });
}
