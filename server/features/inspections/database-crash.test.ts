/**
 * Uploads survive the database being killed (issue 14, durable writes): a private PostgreSQL
 * server, started by this test, is killed with SIGKILL (the postmaster and every backend at
 * once, as a power cut would leave it) while the real app takes 50 uploads; PostgreSQL
 * recovers from its WAL on restart, and every submission is sent again as an outbox would.
 * Every upload acknowledged before the kill must be there with its photo, none twice. A second
 * round kills the database and the app together.
 *
 * PostgreSQL only (the embedded database lives in the app's process: the app's kill test is
 * its kill test). Needs PostgreSQL's server programs (initdb, postgres) on this machine.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chownSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { inspectionListResponseSchema, type UploadResponse } from '../../../common/schemas/inspection.js';
import { acknowledged, makeSubmissions, resend, send, type Submission } from '../../test/outbox.js';
import { sha256 } from '../../test/photos.js';
import { cleanUpServerProcesses, freePort, type ServerProcess, signIn, startServer, tempDir, until } from '../../test/server-process.js';
import { testDatabaseKind } from '../../test/test-database.js';

const ADMIN = { employeeId: 'DBKILL1', password: 'database crash pw' };
const UPLOADS_PER_ROUND = 50;
const KILL_AFTER_ACKNOWLEDGED = 10;

/** PostgreSQL's server programs, newest version first, or null. */
function postgresBin(): string | null {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root).sort((a, b) => Number(b) - Number(a));
  for (const version of versions) if (existsSync(path.join(root, version, 'bin', 'initdb'))) return path.join(root, version, 'bin');
  return null;
}

const bin = postgresBin();
/** PostgreSQL refuses to run as root: as root, its programs run as the postgres user. */
const asRoot = process.getuid?.() === 0;
const postgresUid = (() => {
  try {
    return Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
  } catch {
    return null;
  }
})();
const canRun = testDatabaseKind === 'postgres' && bin !== null && (!asRoot || postgresUid !== null);

function command(program: string, args: string[]): [string, string[]] {
  return asRoot ? ['runuser', ['-u', 'postgres', '--', program, ...args]] : [program, args];
}

class PrivatePostgres {
  private child: ChildProcess | null = null;
  constructor(
    readonly dir: string,
    readonly port: number,
  ) {}

  get url() {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  static async create(): Promise<PrivatePostgres> {
    const dir = await tempDir('hkmi-private-pg-');
    if (asRoot) chownSync(dir, postgresUid!, postgresUid!);
    const [program, args] = command(path.join(bin!, 'initdb'), ['-D', dir, '-A', 'trust', '-U', 'postgres', '--no-sync']);
    execFileSync(program, args, { stdio: 'pipe' });
    return new PrivatePostgres(dir, await freePort());
  }

  /** Starts the server (after a kill: crash recovery from the WAL) and waits until it takes connections. */
  async start(): Promise<void> {
    const [program, args] = command(path.join(bin!, 'postgres'), [
      '-D', this.dir, '-p', String(this.port), '-k', this.dir,
      '-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=on', '-c', 'synchronous_commit=on',
    ]);
    this.child = spawn(program, args, { stdio: 'ignore' });
    await until('the private PostgreSQL to take connections', async () => {
      const client = new pg.Client({ connectionString: this.url });
      try {
        await client.connect();
        await client.query('select 1');
        return true;
      } catch {
        return false;
      } finally {
        await client.end().catch(() => undefined);
      }
    });
  }

  /** SIGKILL to the postmaster and all its backends at once: no shutdown checkpoint, no flush. */
  async kill(): Promise<void> {
    const postmaster = Number(readFileSync(path.join(this.dir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    // Its backends are found before the kill: once the postmaster is gone they belong to init.
    const backends = childrenOf(postmaster);
    for (const pid of [postmaster, ...backends]) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
    await until('the killed PostgreSQL to be gone', async () => [postmaster, ...backends].every((pid) => !isAlive(pid)));
    this.child = null;
  }

}

/** The processes whose parent is `pid`, from /proc (no procps needed). */
function childrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // stat: "pid (comm) state ppid ..."; comm may hold spaces, so read after the last ')'.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) children.push(Number(entry));
    } catch {
      // Gone meanwhile.
    }
  }
  return children;
}

/** Running: there, and not a zombie (a killed process its parent has not reaped yet). */
function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0] !== 'Z';
  } catch {
    return false;
  }
}

let privatePostgres: PrivatePostgres | null = null;
afterAll(async () => {
  await privatePostgres?.kill().catch(() => undefined);
  await cleanUpServerProcesses();
});

interface RoundResult {
  acknowledged: Map<string, UploadResponse>;
  failedAtKill: number;
  retried: Map<string, { status: number; answer: UploadResponse }>;
  server: ServerProcess;
  cookie: string;
}

/** 50 uploads at once; the kill once ten are acknowledged; the restart; every submission again. */
async function round(env: Record<string, string>, submissions: Submission[], killAppToo: boolean): Promise<RoundResult> {
  const database = privatePostgres!;
  let server = await startServer(env);
  let cookie = await signIn(server, ADMIN);
  let answeredOk = 0;
  let settled = 0;
  let killing: Promise<void> | null = null;
  const firstTries = await Promise.all(
    submissions.map((submission) =>
      send(server, cookie, submission).then((attempt) => {
        settled += 1;
        if (acknowledged(attempt)) answeredOk += 1;
        if (!killing && answeredOk >= KILL_AFTER_ACKNOWLEDGED && settled < submissions.length) {
          if (killAppToo) server.child.kill('SIGKILL');
          killing = database.kill();
        }
        return attempt;
      }),
    ),
  );
  if (!killing) throw new Error(`the database was never killed: ${answeredOk} of ${submissions.length} acknowledged`);
  await killing;
  const acknowledgedAnswers = new Map<string, UploadResponse>();
  for (const [i, attempt] of firstTries.entries()) {
    if (acknowledged(attempt)) acknowledgedAnswers.set(submissions[i]!.clientSubmissionId, attempt.answer);
  }

  await database.start();
  if (killAppToo) {
    await server.exited;
    server = await startServer(env);
  } else {
    // The same app process: its pool reconnects once the database is back.
    const app = server;
    await until(
      'the app to reach the database again',
      async () => (await fetch(`${app.base}/api/health`, { signal: AbortSignal.timeout(5000) }).catch(() => undefined))?.status === 200,
      120_000,
    ).catch((error: unknown) => {
      throw new Error(`${String(error)}\n${app.output()}`);
    });
  }
  cookie = await signIn(server, ADMIN);
  const retries = await Promise.all(submissions.map((submission) => resend(server, cookie, submission)));
  const retried = new Map(retries.map((attempt, i) => [submissions[i]!.clientSubmissionId, { status: attempt.status, answer: attempt.answer }]));
  return { acknowledged: acknowledgedAnswers, failedAtKill: submissions.length - acknowledgedAnswers.size, retried, server, cookie };
}

describe.runIf(canRun)('uploads when the database is killed part way (PostgreSQL)', () => {
  it('lose no acknowledged record and store none twice, with the app killed too or not', { timeout: 600_000 }, async () => {
    privatePostgres = await PrivatePostgres.create();
    await privatePostgres.start();
    const env = {
      DATA_DIR: await tempDir('hkmi-db-crash-'),
      DATABASE_URL: privatePostgres.url,
      DEMO: 'false',
      ADMIN_EMPLOYEE_ID: ADMIN.employeeId,
      ADMIN_PASSWORD: ADMIN.password,
    };
    const submissions = await makeSubmissions(2 * UPLOADS_PER_ROUND, { technicianId: ADMIN.employeeId, width: 1600, height: 1200, seed: 41 });

    const results: RoundResult[] = [];
    for (const [r, killAppToo] of [false, true].entries()) {
      const result = await round(env, submissions.slice(r * UPLOADS_PER_ROUND, (r + 1) * UPLOADS_PER_ROUND), killAppToo);
      console.log(
        `database kill round ${r + 1}${killAppToo ? ' (the app killed too)' : ''}: ${result.acknowledged.size} acknowledged before the kill, ${result.failedAtKill} not`,
      );
      results.push(result);
      result.server.child.kill('SIGTERM');
      await result.server.exited;
    }

    // The kills fell on uploads in flight.
    for (const result of results) {
      expect(result.acknowledged.size).toBeGreaterThanOrEqual(KILL_AFTER_ACKNOWLEDGED);
      expect(result.failedAtKill).toBeGreaterThan(0);
    }
    // Every acknowledged upload is there: its retry answered the same record as a replay.
    const recordIdOf = new Map<string, string>();
    for (const result of results) {
      for (const [id, first] of result.acknowledged) {
        expect(result.retried.get(id), `the retry of acknowledged ${id}`).toMatchObject({ status: 200, answer: { recordId: first.recordId, duplicate: true } });
      }
      for (const [id, retry] of result.retried) recordIdOf.set(id, retry.answer.recordId);
    }

    // Through a fresh app: 100 records, one per submission, each photo byte for byte.
    const server = await startServer(env);
    const cookie = await signIn(server, ADMIN);
    const response = await fetch(`${server.base}/api/inspections?limit=500`, { headers: { cookie } });
    const list = inspectionListResponseSchema.parse(await response.json());
    expect(list.total).toBe(2 * UPLOADS_PER_ROUND);
    expect(new Set(list.logs.map((log) => log.recordId))).toEqual(new Set(recordIdOf.values()));
    const hashOf = new Map(submissions.map((s) => [recordIdOf.get(s.clientSubmissionId), s.hash]));
    for (const log of list.logs) {
      const image = await fetch(`${server.base}/api/inspections/${log.recordId}/image`, { headers: { cookie } });
      expect(image.status).toBe(200);
      expect(sha256(Buffer.from(await image.arrayBuffer())), log.recordId).toBe(hashOf.get(log.recordId));
    }
    server.child.kill('SIGTERM');
    await server.exited;

    // No photo file without a record: a write whose row the dead database never took is
    // claimed by the retry of the same submission.
    const files = (await readdir(path.join(env.DATA_DIR, 'blobs'), { recursive: true })).map((f) => path.basename(String(f)));
    expect(new Set(files.filter((f) => /^[0-9a-f]{64}$/.test(f)))).toEqual(new Set(submissions.map((s) => s.hash)));
  });
});
