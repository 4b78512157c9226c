/**
 * Reports are jobs (docs/architecture.md, 'How a job flows'): report services on one database share the queue. Each
 * job is claimed by one worker at a time (FOR UPDATE SKIP LOCKED) and made exactly once; its
 * progress is written with the heartbeat; a job whose worker stopped beating is claimed again
 * and the late worker cannot overwrite the new one's result; a clean stop hands jobs back; a
 * job that keeps dying, or whose renderer throws, fails with a message a person can act on;
 * and one instance makes at most REPORT_WORKERS reports at once.
 *
 * The renderer here is a test double that streams a few bytes, reports progress 0.5 and then
 * waits on a gate the test opens, so every interleaving below is made on purpose.
 */
import { createHash, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PassThrough, type Readable } from 'node:stream';
import { count, eq, sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import type { PublicUser } from '../../../common/schemas/auth.js';
import { reportSummarySchema } from '../../../common/schemas/reports.js';
import { buildApp } from '../../app.js';
import { AppError } from '../../app-error.js';
import { openDatabase, type Database, type Db } from '../../db/client.js';
import { jobs, type UserRow } from '../../db/schema.js';
import type { BlobStore, StoredBlob } from '../../storage/blob-store.js';
import { DiskBlobStore } from '../../storage/disk-blob-store.js';
import { TEST_CONFIG } from '../../test/build-test-app.js';
import { createUser, errorOf, signIn } from '../../test/factories.js';
import { createPostgresTestDatabase, openTestDatabase, testDatabaseKind } from '../../test/test-database.js';
import type { Actor } from '../../audit/index.js';
import { claimNextJob } from '../../jobs/queue.js';
import { findReport, insertReport, type NewReportRow, REPORT_JOB_KINDS, type ReportRow } from './repository.js';
import { createReportService, type ReportService } from './service.js';
import type { ReportRenderer } from './report-job.js';

const KIND = 'service-table-pdf' as const;
const GENERIC_FAILURE = 'The report could not be made: an error on the server (it is logged)';
const WORN_OUT = 'The report was started 3 times and never finished';
const WAIT_MS = 60_000;

// ---------------------------------------------------------------------------------------------
// Polling: wait for conditions, never for times.

async function until<T>(what: string, probe: () => Promise<T | undefined | null | false> | T | undefined | null | false, timeoutMs = WAIT_MS): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== null && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

// ---------------------------------------------------------------------------------------------
// The renderer double: what each worker rendered, when, and a gate per render.

type Mode = 'gate' | 'quick' | 'app-error' | 'app-error-midway' | 'error' | 'error-midway';

interface Render {
  worker: string;
  jobId: string;
  signal: AbortSignal;
  /** The renderer's `finished` resolved: every byte was handed over. */
  finished: boolean;
}

interface Deferred {
  promise: Promise<void>;
  resolve(): void;
}

function deferred(): Deferred {
  let resolve = () => undefined as void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/** The bytes a render writes: different per job and per worker, so files tell who made them. */
const headOf = (jobId: string, worker: string) => `%TEST report ${jobId} made by ${worker}\n`;
const tailOf = (jobId: string, worker: string) => `end of ${jobId} by ${worker}\n`;
const bytesOf = (jobId: string, worker: string) => Buffer.from(headOf(jobId, worker) + tailOf(jobId, worker));
const hashOf = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

class Renders {
  readonly all: Render[] = [];
  private readonly gates = new Map<string, Deferred>();
  private readonly reached = new Set<string>();
  private readonly active = new Map<string, number>();
  /** The most renders of one worker seen running at the same moment. */
  readonly maxActive = new Map<string, number>();
  /** The most renders of one job seen running at the same moment, over all workers. */
  readonly maxActivePerJob = new Map<string, number>();
  private readonly activePerJob = new Map<string, number>();

  private gate(worker: string, jobId: string): Deferred {
    const key = `${worker}\u0000${jobId}`;
    let gate = this.gates.get(key);
    if (!gate) {
      gate = deferred();
      this.gates.set(key, gate);
    }
    return gate;
  }

  /** Opens the gate of `worker`'s render of `jobId` (now, or as soon as it gets there). */
  release(jobId: string, worker: string): void {
    this.gate(worker, jobId).resolve();
  }

  /** Whether `worker`'s render of `jobId` is waiting at its gate (after progress 0.5). */
  waiting(jobId: string, worker: string): boolean {
    return this.reached.has(`${worker}\u0000${jobId}`);
  }

  of(jobId: string): Render[] {
    return this.all.filter((r) => r.jobId === jobId);
  }

  private enter(worker: string, jobId: string): void {
    const n = (this.active.get(worker) ?? 0) + 1;
    this.active.set(worker, n);
    this.maxActive.set(worker, Math.max(n, this.maxActive.get(worker) ?? 0));
    const j = (this.activePerJob.get(jobId) ?? 0) + 1;
    this.activePerJob.set(jobId, j);
    this.maxActivePerJob.set(jobId, Math.max(j, this.maxActivePerJob.get(jobId) ?? 0));
  }

  private leave(worker: string, jobId: string): void {
    this.active.set(worker, (this.active.get(worker) ?? 1) - 1);
    this.activePerJob.set(jobId, (this.activePerJob.get(jobId) ?? 1) - 1);
  }

  renderer(worker: string): ReportRenderer {
    return async (job, control) => {
      const mode = (job.params.mode ?? 'gate') as Mode;
      const render: Render = { worker, jobId: job.id, signal: control.signal, finished: false };
      this.all.push(render);
      this.enter(worker, job.id);
      if (mode === 'app-error' || mode === 'error') {
        this.leave(worker, job.id);
        if (mode === 'app-error') throw new AppError('NO_RECORDS', `No Service records of ${job.division ?? 'any division'} match: widen the dates`);
        throw new Error('renderer bug: cannot read property of undefined');
      }
      const stream = new PassThrough();
      const gate = this.gate(worker, job.id);
      const finished = (async () => {
        try {
          const ahead = stream.write(headOf(job.id, worker));
          control.progress(0.5);
          if (mode === 'app-error-midway' || mode === 'error-midway') {
            // Part way: the blob store is reading (it has taken a page more than the buffer holds).
            if (ahead && stream.write(Buffer.alloc(64 * 1024, 0x20))) throw new Error('the stream took 64 KB without a reader');
            await once(stream, 'drain');
            if (mode === 'app-error-midway') throw new AppError('REPORT_FAILED', 'The photo of record INS-1 is unreadable: upload it again');
            throw new Error('ENOSPC: no space left on device');
          }
          if (mode === 'gate') {
            this.reached.add(`${worker}\u0000${job.id}`);
            await new Promise<void>((resolve, reject) => {
              if (control.signal.aborted) reject(control.signal.reason as Error);
              control.signal.addEventListener('abort', () => reject(control.signal.reason as Error), { once: true });
              void gate.promise.then(resolve);
            });
          }
          control.progress(0.9);
          stream.end(tailOf(job.id, worker));
          render.finished = true;
          return { recordCount: 7, summary: { madeBy: worker } };
        } finally {
          this.leave(worker, job.id);
        }
      })();
      finished.catch((error: unknown) => stream.destroy(error instanceof Error ? error : new Error(String(error))));
      return { fileName: `Report_${job.id}.txt`, contentType: 'text/plain', stream, finished };
    };
  }
}

// ---------------------------------------------------------------------------------------------
// Doubles of the surroundings: a log that keeps what it was told, a blob store that says what
// a worker stored and deleted, and a connection whose heartbeats can be cut off.

interface LogEntry {
  level: 'error' | 'warn' | 'info';
  obj: object;
  msg: string;
}

function recordingLog() {
  const entries: LogEntry[] = [];
  return {
    entries,
    error: (obj: object, msg: string) => void entries.push({ level: 'error', obj, msg }),
    warn: (obj: object, msg: string) => void entries.push({ level: 'warn', obj, msg }),
    info: (obj: object, msg: string) => void entries.push({ level: 'info', obj, msg }),
  };
}

function recordingBlobs(inner: BlobStore) {
  const stored: StoredBlob[] = [];
  const deleted: string[] = [];
  const blobs: BlobStore = {
    put: (bytes, options) => inner.put(bytes, options),
    list: () => inner.list(),
    putStream: async (source: Readable, options) => {
      const blob = await inner.putStream(source, options);
      stored.push(blob);
      return blob;
    },
    stage: (source) => inner.stage(source),
    exists: (hash) => inner.exists(hash),
    size: (hash) => inner.size(hash),
    read: (hash) => inner.read(hash),
    readHead: (hash, bytes) => inner.readHead(hash, bytes),
    stream: (hash, range) => inner.stream(hash, range),
    delete: async (hash) => {
      deleted.push(hash);
      await inner.delete(hash);
    },
    readVariant: (hash, variant) => inner.readVariant(hash, variant),
    putVariant: (hash, variant, bytes) => inner.putVariant(hash, variant, bytes),
    removeAbandonedWrites: (olderThan) => inner.removeAbandonedWrites(olderThan),
    probeWrite: () => inner.probeWrite(),
  };
  return { blobs, stored, deleted };
}

/**
 * The database as one instance sees it, with a switch that makes its heartbeats fail as if
 * they never reached the server (a network partition, a paused VM): every other query works,
 * so the worker goes on making the report and later tries to record it.
 */
function partitionable(db: Db) {
  const state = { heartbeatsLost: false };
  const proxy = new Proxy(db, {
    get(target, prop, receiver) {
      if (prop !== 'update') return Reflect.get(target, prop, receiver) as unknown;
      return (table: Parameters<Db['update']>[0]) => {
        const builder = target.update(table);
        return new Proxy(builder, {
          get(b, p, r) {
            if (p !== 'set') return Reflect.get(b, p, r) as unknown;
            return (values: Record<string, unknown>) => {
              const isHeartbeat = 'heartbeatAt' in values && !('status' in values);
              if (state.heartbeatsLost && isHeartbeat) throw new Error('heartbeat lost: connection timed out');
              return b.set(values as Parameters<typeof b.set>[0]);
            };
          },
        });
      };
    },
  });
  return { db: proxy, state };
}

// ---------------------------------------------------------------------------------------------
// One database (two connections on PostgreSQL, so claims really race), a blob folder, a user.

interface World {
  /** Each instance's own connection to the one database. */
  databases: [Database, Database];
  blobs: DiskBlobStore;
  blobDir: string;
  user: UserRow;
  actor: Actor;
  renders: Renders;
  services: ReportService[];
}

let world: World | undefined;
const cleanups: Array<() => Promise<void>> = [];

afterEach(async () => {
  for (const service of world?.services ?? []) await service.stop();
  while (cleanups.length > 0) await cleanups.pop()?.();
  world = undefined;
});

async function openWorld(): Promise<World> {
  let databases: [Database, Database];
  if (testDatabaseKind === 'postgres') {
    const url = await createPostgresTestDatabase();
    databases = [await openDatabase({ databaseUrl: url, poolSize: 4 }), await openDatabase({ databaseUrl: url, poolSize: 4 })];
    cleanups.push(async () => {
      await databases[0].close();
      await databases[1].close();
    });
  } else {
    // PGlite is one process's database: two instances in that process share its connection.
    const database = await openTestDatabase();
    databases = [database, database];
    cleanups.push(() => database.close());
  }
  const blobDir = await mkdtemp(path.join(os.tmpdir(), 'hkmi-report-jobs-'));
  cleanups.push(() => rm(blobDir, { recursive: true, force: true }));
  const user = await createUser(databases[0].db, { role: 'Admin', name: 'Asha Admin' });
  const publicUser: PublicUser = { id: user.id, employeeId: user.employeeId, name: user.name, role: 'Admin', phone: null, divisionAccess: null, isOwner: false };
  world = { databases, blobs: new DiskBlobStore(blobDir), blobDir, user, actor: { user: publicUser, requestId: randomUUID() }, renders: new Renders(), services: [] };
  return world;
}

interface InstanceOptions {
  label: string;
  /** Which of the two connections (0 or 1). */
  connection?: 0 | 1;
  workers?: number;
  staleSeconds?: number;
  /** Unfinished reports a user may have; these tests are of the engine, so many unless told. */
  jobsPerUser?: number;
}

/** A report service as an instance runs one, with the test renderer for KIND. */
function instance(w: World, options: InstanceOptions) {
  const database = w.databases[options.connection ?? 0];
  const link = partitionable(database.db);
  const store = recordingBlobs(w.blobs);
  const log = recordingLog();
  const service = createReportService({
    db: link.db,
    blobs: store.blobs,
    now: () => new Date(),
    retentionDays: 7,
    workers: options.workers ?? 1,
    staleSeconds: options.staleSeconds ?? 60,
    jobsPerAdmin: options.jobsPerUser ?? 100,
    jobsPerClient: options.jobsPerUser ?? 100,
    pollMs: 50,
    databaseKind: database.kind,
    log,
  });
  service.register(KIND, w.renders.renderer(options.label));
  w.services.push(service);
  return { service, label: options.label, link, store, log };
}

let sequence = 0;

/** Asks for a report of KIND; each call is a different report (no reuse of an earlier one). */
function ask(w: World, service: ReportService, mode: Mode = 'gate', actor: Actor = w.actor): Promise<ReportRow> {
  sequence += 1;
  return service.request(actor, { kind: KIND, params: { mode, n: sequence }, snapshot: {}, division: 'RTM/WR', dependsOn: sequence });
}

/** Another user who asks for reports: an Admin, or a Client of RTM/WR. */
async function otherActor(w: World, role: 'Admin' | 'Client', name: string): Promise<Actor> {
  const divisionAccess = role === 'Client' ? 'RTM/WR' : null;
  const user = await createUser(w.databases[0].db, { role, name, divisionAccess });
  return { user: { id: user.id, employeeId: user.employeeId, name: user.name, role, phone: null, divisionAccess, isOwner: false }, requestId: randomUUID() };
}

/**
 * Asks as `ask` does, once the clock has moved past the last request: jobs are taken oldest
 * first, and two asked within one millisecond would be of the same age.
 */
async function askInTurn(w: World, service: ReportService, actor: Actor): Promise<ReportRow> {
  const last = Date.now();
  await until('the clock to move on', () => Date.now() > last);
  return ask(w, service, 'gate', actor);
}

/** Writes a job row as an instance would have left it (for jobs whose instance is gone). */
async function insertJob(w: World, values: Partial<NewReportRow> & { mode: Mode }): Promise<ReportRow> {
  sequence += 1;
  const { mode, ...rest } = values;
  return insertReport(w.databases[0].db, {
    id: randomUUID(),
    kind: KIND,
    params: { mode, n: sequence },
    snapshot: {},
    division: 'RTM/WR',
    dedupeKey: hashOf(Buffer.from(`job ${sequence}`)),
    requestedByUserId: w.user.id,
    requestedByEmployeeId: w.user.employeeId,
    status: 'queued',
    progress: 0,
    createdAt: new Date(),
    expiresAt: new Date(Date.now() + 7 * 86_400_000),
    ...rest,
  });
}

const rowOf = async (w: World, id: string): Promise<ReportRow> => {
  const row = await findReport(w.databases[0].db, id);
  if (!row) throw new Error(`report ${id} is gone`);
  return row;
};

const doneRow = (w: World, id: string) => until(`report ${id} to be done`, async () => {
  const row = await rowOf(w, id);
  if (row.status === 'failed') throw new Error(`report ${id} failed: ${row.error}`);
  return row.status === 'done' && row;
});

/** The finished row holds `worker`'s file, and the blob store has exactly those bytes. */
async function expectMadeBy(w: World, row: ReportRow, worker: string): Promise<void> {
  const bytes = bytesOf(row.id, worker);
  expect(row).toMatchObject({
    status: 'done',
    progress: 100,
    claimedBy: null,
    error: null,
    recordCount: 7,
    summary: { madeBy: worker },
    fileHash: hashOf(bytes),
    fileSizeBytes: bytes.length,
    fileName: `Report_${row.id}.txt`,
    contentType: 'text/plain',
  });
  expect(row.finishedAt).toBeInstanceOf(Date);
  expect((await w.blobs.read(row.fileHash ?? '')).equals(bytes)).toBe(true);
}

/** Every file in the blob folder that is a stored blob (no temp files, no variants). */
async function blobFiles(w: World): Promise<string[]> {
  const entries = await readdir(w.blobDir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => e.name).sort();
}

// ---------------------------------------------------------------------------------------------

// Generous: these wait for heartbeats and stale times on what may be a busy 2-core machine.
describe('report jobs shared by the instances of one database', { timeout: 120_000 }, () => {
  it('two workers claim different jobs; each job is made exactly once and all are done with their files stored', async () => {
    const w = await openWorld();
    const a = instance(w, { label: 'A', connection: 0 });
    const b = instance(w, { label: 'B', connection: 1 });
    await a.service.start();
    await b.service.start();

    const jobs = [await ask(w, a.service), await ask(w, a.service), await ask(w, b.service)];
    const ids = jobs.map((j) => j.id);

    // Both workers (one report at a time each) are at their gates, each with its own job.
    const firstTwo = await until('both workers to be making a report', () => w.renders.all.length >= 2 && w.renders.all.slice(0, 2));
    expect(new Set(firstTwo.map((r) => r.worker))).toEqual(new Set(['A', 'B']));
    expect(firstTwo[0]?.jobId).not.toBe(firstTwo[1]?.jobId);
    const workerIdOf = (label: string) => (label === 'A' ? a.service.workerId : b.service.workerId);
    for (const render of firstTwo) {
      await until(`${render.worker} to reach its gate`, () => w.renders.waiting(render.jobId, render.worker));
      expect(await rowOf(w, render.jobId)).toMatchObject({ status: 'running', claimedBy: workerIdOf(render.worker), attempts: 1 });
    }
    const third = ids.find((id) => !firstTwo.some((r) => r.jobId === id)) ?? '';
    expect(await rowOf(w, third)).toMatchObject({ status: 'queued', claimedBy: null, attempts: 0 });

    // The first worker to be free takes the third; the others finish.
    for (const render of firstTwo) w.renders.release(render.jobId, render.worker);
    const thirdRender = await until('the third job to be claimed', () => w.renders.of(third)[0]);
    w.renders.release(third, thirdRender.worker);

    for (const id of ids) {
      const row = await doneRow(w, id);
      const made = w.renders.of(id);
      expect(made, `renders of ${id}`).toHaveLength(1);
      expect(row.attempts).toBe(1);
      await expectMadeBy(w, row, made[0]?.worker ?? '');
    }
    expect(w.renders.all).toHaveLength(3);
    for (const id of ids) expect(w.renders.maxActivePerJob.get(id)).toBe(1);
    expect(await blobFiles(w)).toEqual(ids.map((id) => hashOf(bytesOf(id, w.renders.of(id)[0]?.worker ?? ''))).sort());
  });

  it('writes the progress with the heartbeat: status running at 50% while the renderer is half way, then done at 100%', async () => {
    const w = await openWorld();
    const a = instance(w, { label: 'A' });
    await a.service.start();
    const job = await ask(w, a.service);

    const halfWay = await until('the status to say running at 50%', async () => {
      const status = await a.service.status(w.actor.user, job.id);
      return status.status === 'running' && status.progress === 50 && status;
    });
    expect(reportSummarySchema.parse(halfWay)).toMatchObject({ reportId: job.id, status: 'running', progress: 50, error: null, fileName: null });

    w.renders.release(job.id, 'A');
    await doneRow(w, job.id);
    expect(await a.service.status(w.actor.user, job.id)).toMatchObject({ status: 'done', progress: 100, recordCount: 7, fileName: `Report_${job.id}.txt` });
  });

  it('claims again a job left running by an instance that died (stale heartbeat), and finishes it; a job beating elsewhere is left alone', async () => {
    const w = await openWorld();
    // Stale after 10 minutes: the orphan's heartbeat is an hour old, the live one's is fresh.
    const b = instance(w, { label: 'B', connection: 1, staleSeconds: 600 });
    await b.service.start(); // before the rows exist: on PGlite, start would requeue them itself
    // The older job is held by a live instance (fresh heartbeat): not to be taken.
    const alive = await insertJob(w, { mode: 'gate', status: 'running', claimedBy: 'other-host-1-aaaaaaaa', heartbeatAt: sql`now()` as unknown as Date, attempts: 1, createdAt: new Date(Date.now() - 120_000) });
    const orphan = await insertJob(w, {
      mode: 'gate',
      status: 'running',
      progress: 40,
      claimedBy: 'dead-host-9-deadbeef',
      heartbeatAt: sql`now() - interval '1 hour'` as unknown as Date,
      attempts: 1,
      createdAt: new Date(Date.now() - 60_000),
    });

    await until('the dead instance’s job to be claimed again', () => w.renders.waiting(orphan.id, 'B'));
    expect(await rowOf(w, orphan.id)).toMatchObject({ status: 'running', claimedBy: b.service.workerId, attempts: 2 });
    w.renders.release(orphan.id, 'B');
    await expectMadeBy(w, await doneRow(w, orphan.id), 'B');

    expect(w.renders.of(alive.id)).toEqual([]);
    expect(await rowOf(w, alive.id)).toMatchObject({ status: 'running', claimedBy: 'other-host-1-aaaaaaaa', attempts: 1 });
  });

  it('a worker whose heartbeats stop reaching the database loses its job after the stale time; finishing late, it does not overwrite the new result', async () => {
    const w = await openWorld();
    const one = instance(w, { label: 'one', connection: 0, staleSeconds: 2 });
    const two = instance(w, { label: 'two', connection: 1, staleSeconds: 2 });
    await one.service.start();
    await two.service.start();
    const job = await ask(w, one.service);

    const firstRender = await until('a worker to claim the job', () => w.renders.of(job.id)[0]);
    const [first, second] = firstRender.worker === 'one' ? [one, two] : [two, one];
    await until('the first worker’s heartbeat to write 50%', async () => (await rowOf(w, job.id)).progress === 50);

    // The first instance is cut off from the database's point of view; it goes on rendering.
    first.link.state.heartbeatsLost = true;
    await until('the other worker to claim the stale job', () => w.renders.waiting(job.id, second.label));
    expect(await rowOf(w, job.id)).toMatchObject({ status: 'running', claimedBy: second.service.workerId, attempts: 2 });
    expect(firstRender.signal.aborted).toBe(false);

    // The first finishes now: its file is stored, then completeJob must refuse it.
    w.renders.release(job.id, first.label);
    const late = await until('the first worker to store its late file', () => first.store.stored[0]);
    expect(late.hash).toBe(hashOf(bytesOf(job.id, first.label)));
    await first.service.stop();
    expect(firstRender.finished).toBe(true);
    expect(await rowOf(w, job.id)).toMatchObject({ status: 'running', claimedBy: second.service.workerId, fileHash: null });
    expect(first.store.deleted).toEqual([late.hash]);
    expect(await w.blobs.exists(late.hash)).toBe(false);

    w.renders.release(job.id, second.label);
    await expectMadeBy(w, await doneRow(w, job.id), second.label);
    expect(first.log.entries.filter((e) => e.level === 'error')).toEqual([]);
  });

  it('a worker that finds its job taken by another instance stops making it and leaves the row to the other', async () => {
    const w = await openWorld();
    const a = instance(w, { label: 'A' });
    await a.service.start();
    const job = await ask(w, a.service);
    await until('A to reach its gate', () => w.renders.waiting(job.id, 'A'));
    const render = w.renders.of(job.id)[0];

    await w.databases[0].db.execute(sql`update jobs set claimed_by = 'other-host-2-bbbbbbbb', heartbeat_at = now() where id = ${job.id}`);
    await until('A’s render to be aborted by its next heartbeat', () => render?.signal.aborted);
    await a.service.stop();
    expect(render?.finished).toBe(false);
    expect(await rowOf(w, job.id)).toMatchObject({ status: 'running', claimedBy: 'other-host-2-bbbbbbbb', error: null, fileHash: null });
    expect(a.log.entries.filter((e) => e.level === 'error')).toEqual([]);
  });

  it('a clean stop hands a running job back to the queue, and another worker finishes it', async () => {
    const w = await openWorld();
    const a = instance(w, { label: 'A', connection: 0 });
    await a.service.start();
    const job = await ask(w, a.service);
    await until('A to be half way', async () => w.renders.waiting(job.id, 'A') && (await rowOf(w, job.id)).progress === 50);
    const render = w.renders.of(job.id)[0];

    await a.service.stop();
    expect(render?.signal.aborted).toBe(true);
    expect(render?.finished).toBe(false);
    expect(await rowOf(w, job.id)).toMatchObject({ status: 'queued', claimedBy: null, heartbeatAt: null, error: null, fileHash: null, attempts: 1 });
    expect(a.log.entries.filter((e) => e.level === 'error')).toEqual([]);
    // The aborted write removes its partial file (it may still be doing so as stop returns).
    await until('no partial file to be left in the blob store', async () => (await blobFiles(w)).length === 0);

    const b = instance(w, { label: 'B', connection: 1 });
    await b.service.start();
    await until('B to take the handed-back job', () => w.renders.waiting(job.id, 'B'));
    expect(await rowOf(w, job.id)).toMatchObject({ status: 'running', claimedBy: b.service.workerId, attempts: 2 });
    w.renders.release(job.id, 'B');
    await expectMadeBy(w, await doneRow(w, job.id), 'B');
    expect(w.renders.of(job.id).map((r) => r.worker)).toEqual(['A', 'B']);
  });

  it('fails a job started 3 times that died each time, and jobs whose renderer throws; the API shows why and the download answers 409', async () => {
    const w = await openWorld();
    const a = instance(w, { label: 'A', staleSeconds: 2 });
    // The worker is busy with a first report while the rows below are written, so its next
    // look at the queue sees them all at once. (Started before they exist: on PGlite, start
    // would requeue running jobs itself.)
    await a.service.start();
    const blocker = await ask(w, a.service);
    await until('the worker to be busy', () => w.renders.waiting(blocker.id, 'A'));
    const dead = { status: 'running', claimedBy: 'dead-host-9-deadbeef', heartbeatAt: sql`now() - interval '1 hour'` as unknown as Date } as const;
    const wornOut = await insertJob(w, { mode: 'gate', ...dead, attempts: 3 });
    const twice = await insertJob(w, { mode: 'quick', ...dead, attempts: 2 });
    const appError = await ask(w, a.service, 'app-error');
    const appErrorMidway = await ask(w, a.service, 'app-error-midway');
    const plainError = await ask(w, a.service, 'error');
    const plainErrorMidway = await ask(w, a.service, 'error-midway');
    w.renders.release(blocker.id, 'A');

    const all = [wornOut, twice, appError, appErrorMidway, plainError, plainErrorMidway];
    await until('every job to be done or failed', async () => {
      const rows = await Promise.all(all.map((j) => rowOf(w, j.id)));
      return rows.every((r) => r.status === 'done' || r.status === 'failed');
    });
    expect(await rowOf(w, wornOut.id)).toMatchObject({ status: 'failed', error: WORN_OUT, claimedBy: null, attempts: 3, fileHash: null });
    expect(w.renders.of(wornOut.id)).toEqual([]);
    const madeOnThirdStart = await rowOf(w, twice.id);
    expect(madeOnThirdStart).toMatchObject({ status: 'done', attempts: 3 });
    await expectMadeBy(w, madeOnThirdStart, 'A');
    expect(await rowOf(w, appError.id)).toMatchObject({ status: 'failed', error: 'No Service records of RTM/WR match: widen the dates', claimedBy: null, fileHash: null });
    expect(await rowOf(w, appErrorMidway.id)).toMatchObject({ status: 'failed', error: 'The photo of record INS-1 is unreadable: upload it again', claimedBy: null, fileHash: null });
    expect(await rowOf(w, plainError.id)).toMatchObject({ status: 'failed', error: GENERIC_FAILURE, claimedBy: null, fileHash: null });
    expect(await rowOf(w, plainErrorMidway.id)).toMatchObject({ status: 'failed', error: GENERIC_FAILURE, claimedBy: null, fileHash: null });
    for (const failed of [appError, appErrorMidway, plainError, plainErrorMidway]) expect((await rowOf(w, failed.id)).finishedAt).toBeInstanceOf(Date);
    // The server's own errors are logged (with the report); a user's AppError is not.
    const logged = a.log.entries.filter((e) => e.level === 'error').map((e) => (e.obj as { reportId?: string }).reportId);
    expect(logged.sort()).toEqual([plainError.id, plainErrorMidway.id].sort());
    // A failed job leaves no file behind: its partial file is removed.
    const kept = [madeOnThirdStart.fileHash, (await rowOf(w, blocker.id)).fileHash].sort();
    await until('only the made reports’ files to be left', async () => JSON.stringify(await blobFiles(w)) === JSON.stringify(kept));
    await a.service.stop();

    // What a person sees, over HTTP, on the same database.
    const app = await buildApp({ config: TEST_CONFIG, database: w.databases[0], blobs: w.blobs, webRoot: path.join(w.blobDir, 'no-web') });
    cleanups.push(() => app.close());
    await app.ready();
    const cookie = await signIn(app, w.user.employeeId);
    const expectations: Array<[ReportRow, string]> = [
      [wornOut, WORN_OUT],
      [appError, 'No Service records of RTM/WR match: widen the dates'],
      [appErrorMidway, 'The photo of record INS-1 is unreadable: upload it again'],
      [plainError, GENERIC_FAILURE],
      [plainErrorMidway, GENERIC_FAILURE],
    ];
    for (const [job, message] of expectations) {
      const status = await app.inject({ url: `/api/reports/${job.id}`, headers: { cookie } });
      expect(status.statusCode, status.body).toBe(200);
      expect(reportSummarySchema.parse(status.json())).toMatchObject({ reportId: job.id, status: 'failed', error: message, fileName: null });
      const download = await app.inject({ url: `/api/reports/download/${job.id}`, headers: { cookie } });
      expect(download.statusCode, download.body).toBe(409);
      expect(errorOf(download)).toMatchObject({ code: 'REPORT_FAILED', message });
    }
    const made = await app.inject({ url: `/api/reports/download/${twice.id}`, headers: { cookie } });
    expect(made.statusCode).toBe(200);
    expect(made.rawPayload.equals(bytesOf(twice.id, 'A'))).toBe(true);
  });

  it('never starts a job a fourth time: a worn-out job left running or queued again is failed, not claimed', async () => {
    const w = await openWorld();
    const dead = { claimedBy: 'dead-host-9-deadbeef', heartbeatAt: sql`now() - interval '1 hour'` as unknown as Date } as const;
    // Written before any worker starts: on the embedded database, start itself marks the
    // running one stale (this process owns the data folder), and the queued one is plain queued.
    const leftRunning = await insertJob(w, { mode: 'quick', status: 'running', ...dead, attempts: 3 });
    const queuedAgain = await insertJob(w, { mode: 'quick', status: 'queued', attempts: 3 });
    expect(await claimNextJob(w.databases[0].db, REPORT_JOB_KINDS, 'probe-worker', 2, 3, new Date())).toBeUndefined();
    const a = instance(w, { label: 'A', staleSeconds: 2 });
    await a.service.start();
    for (const job of [leftRunning, queuedAgain]) {
      const row = await until(`report ${job.id} to be failed`, async () => {
        const current = await rowOf(w, job.id);
        return current.status !== 'queued' && current.status !== 'running' && current;
      });
      expect(row).toMatchObject({ status: 'failed', error: WORN_OUT, attempts: 3, fileHash: null });
    }
    expect(w.renders.of(leftRunning.id)).toEqual([]);
    expect(w.renders.of(queuedAgain.id)).toEqual([]);
  });

  it('a renderer that fails before the blob store reads its stream fails its job and leaves the process running', async () => {
    const w = await openWorld();
    const a = instance(w, { label: 'A' });
    // Errors at once: the stream is destroyed before anything listens to it.
    a.service.register('sse-cof-pdf', async () => {
      const stream = new PassThrough();
      const finished = Promise.reject(new AppError('NO_RECORDS', 'Nothing to print any more'));
      finished.catch((error: unknown) => stream.destroy(error as Error));
      return { fileName: 'x.pdf', contentType: 'application/pdf', stream, finished };
    });
    await a.service.start();
    const job = await a.service.request(w.actor, { kind: 'sse-cof-pdf', params: { n: 'early' }, snapshot: {}, division: 'RTM/WR', dependsOn: 'early' });
    const row = await until('the job to fail', async () => {
      const current = await rowOf(w, job.id);
      return current.status === 'failed' && current;
    });
    expect(row.error).toBe('Nothing to print any more');
    // The worker goes on: the next job is made.
    await doneRow(w, (await ask(w, a.service, 'quick')).id);
  });

  it('takes turns between users: a second user’s report starts before the first user’s queued ones, a third’s next, then each in turn', async () => {
    const w = await openWorld();
    const a = instance(w, { label: 'A' });
    await a.service.start();
    const bala = await otherActor(w, 'Admin', 'Bala Admin');
    const chitra = await otherActor(w, 'Client', 'Chitra Client');
    // The worker is held by Asha's first report while everyone else's queue up behind it.
    const ashaFirst = await ask(w, a.service);
    await until('the worker to be making Asha’s first report', () => w.renders.waiting(ashaFirst.id, 'A'));
    const ashaMore: ReportRow[] = [];
    for (let i = 0; i < 5; i++) ashaMore.push(await askInTurn(w, a.service, w.actor));
    const balas = [await askInTurn(w, a.service, bala), await askInTurn(w, a.service, bala)];
    const chitras = [await askInTurn(w, a.service, chitra)];
    const queued = [...ashaMore, ...balas, ...chitras];
    for (const job of queued) expect(await rowOf(w, job.id)).toMatchObject({ status: 'queued' });

    // One at a time, in the order the worker takes them.
    const started = [ashaFirst.id];
    w.renders.release(ashaFirst.id, 'A');
    while (started.length < 1 + queued.length) {
      const next = await until('the next report to start', () => w.renders.all.find((r) => !started.includes(r.jobId)));
      await until(`report ${next.jobId} to reach its gate`, () => w.renders.waiting(next.jobId, 'A'));
      started.push(next.jobId);
      w.renders.release(next.jobId, 'A');
    }
    const [asha2, asha3, asha4, asha5, asha6] = ashaMore.map((j) => j.id);
    const [bala1, bala2] = balas.map((j) => j.id);
    // Never served first (the older request first), then whoever was served least recently.
    expect(started).toEqual([ashaFirst.id, bala1, chitras[0]?.id, asha2, bala2, asha3, asha4, asha5, asha6]);
    for (const id of started) await doneRow(w, id);
    expect(w.renders.maxActive.get('A')).toBe(1);
  });

  it('lets one user have only their cap of unfinished reports, even asking through two instances at once', async () => {
    const w = await openWorld();
    // Not started: nothing is made, every job stays queued.
    const one = instance(w, { label: 'one', connection: 0, jobsPerUser: 3 });
    const two = instance(w, { label: 'two', connection: 1, jobsPerUser: 3 });
    await ask(w, one.service);
    await ask(w, two.service);
    const outcomes = await Promise.allSettled(Array.from({ length: 6 }, (_, i) => ask(w, i % 2 === 0 ? one.service : two.service)));
    const fulfilled = outcomes.filter((o) => o.status === 'fulfilled');
    const refused = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason] : []));
    expect(fulfilled).toHaveLength(1);
    expect(refused).toHaveLength(5);
    for (const reason of refused) {
      expect(reason).toBeInstanceOf(AppError);
      expect(reason).toMatchObject({ code: 'TOO_MANY_REPORT_JOBS', status: 429, message: 'You have 3 reports still being made. Please wait for one of them to finish, then ask again' });
    }
    const [stored] = await w.databases[0].db.select({ n: count() }).from(jobs).where(eq(jobs.ownerUserId, w.user.id));
    expect(stored?.n).toBe(3);
    // A report already asked for is never refused: the same request answers the same job.
    const first = fulfilled[0]?.status === 'fulfilled' ? fulfilled[0].value : undefined;
    if (!first) throw new Error('no report was queued');
    // (The stored params are jsonb, which orders keys its own way: ask with them as `ask` did.)
    const { n } = first.params as { n: number };
    const again = await one.service.request(w.actor, { kind: KIND, params: { mode: 'gate', n }, snapshot: {}, division: 'RTM/WR', dependsOn: n });
    expect(again.id).toBe(first.id);
  });

  it('one instance with REPORT_WORKERS=1 never makes two reports at once; with 2 it makes two', async () => {
    const w = await openWorld();
    const single = instance(w, { label: 'single', workers: 1 });
    await single.service.start();
    const [first, second] = [await ask(w, single.service), await ask(w, single.service)];
    if (!first || !second) throw new Error('no jobs');
    await until('the first report to be half way, its heartbeat written', async () => w.renders.waiting(first.id, 'single') && (await rowOf(w, first.id)).progress === 50);
    // The worker has polled many times since (every 50 ms) and beaten once: still one at a time.
    expect(w.renders.all.map((r) => r.jobId)).toEqual([first.id]);
    expect(await rowOf(w, second.id)).toMatchObject({ status: 'queued', claimedBy: null });
    w.renders.release(first.id, 'single');
    await until('the second report to start', () => w.renders.waiting(second.id, 'single'));
    w.renders.release(second.id, 'single');
    await doneRow(w, first.id);
    await doneRow(w, second.id);
    expect(w.renders.maxActive.get('single')).toBe(1);
    await single.service.stop();

    // The same probe sees two at once when two are allowed: the bound above is the worker's.
    const pair = instance(w, { label: 'pair', workers: 2 });
    await pair.service.start();
    const [third, fourth] = [await ask(w, pair.service), await ask(w, pair.service)];
    if (!third || !fourth) throw new Error('no jobs');
    await until('both reports to be made at once', () => w.renders.waiting(third.id, 'pair') && w.renders.waiting(fourth.id, 'pair'));
    expect(w.renders.maxActive.get('pair')).toBe(2);
    w.renders.release(third.id, 'pair');
    w.renders.release(fourth.id, 'pair');
    await doneRow(w, third.id);
    await doneRow(w, fourth.id);
  });
});
