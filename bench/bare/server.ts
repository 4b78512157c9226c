/**
 * The bare routes, one kind (BARE_KIND) per child process forked by ./start.ts: Fastify with no hooks, sign-in, cache,
 * compression or validation, each doing the least the product's route could (README, "The bare ceiling").
 * Messages: child -> parent {type: 'ready', port, note} or {type: 'failed', message}.
 */
import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { PGlite } from '@electric-sql/pglite';
import fastifyMultipart from '@fastify/multipart';
import { verify } from '@node-rs/argon2';
import { asc, eq, sql } from 'drizzle-orm';
import Fastify, { type FastifyInstance } from 'fastify';
import { ZipFile } from 'yazl';
import type { Database, Db } from '../../server/db/client.js';
import { consolidatedCurveDetails as curves, inspectionLogs, users } from '../../server/db/schema.js';
import { DEFAULT_COF_ALERT_THRESHOLD } from '../../common/rules/schedule.js';
import { listActions } from '../../server/features/actions/repository.js';
import { cofByPeriod } from '../../server/features/analytics/figures-sql.js';
import { hashPassword } from '../../server/security/password.js';
import { makeDurableDir, syncDir } from '../../server/storage/disk-blob-store.js';
import { serveAsChild } from '../lib/child.js';
import { loadGeneratedRecords, openBareDb } from './database.js';
import { BARE_PAGE, type BareReady, type BareReadRoute, type BareRoute, COPIED_CURVE_COLUMNS, type CurvesMessage, type ZipFilesMessage } from './start.js';

const nextMessage = <T>() => new Promise<T>((resolve) => process.once('message', (message) => resolve(message as T)));

const REGISTER_ORDER = [asc(curves.divisionRailway), asc(curves.section), asc(curves.no), asc(curves.id)];

async function generatedRecords(pglite: PGlite, database: Database): Promise<string> {
  const seconds = await loadGeneratedRecords(pglite, database);
  const { rows } = await pglite.query<{ n: number; actions: number }>('select count(*)::int as n, (select count(*)::int from follow_up_actions) as actions from inspection_logs');
  return (
    `the demo seed and the scale seed's records as the server's were loaded (same seed, day and sizes): ${rows[0]?.n ?? '?'} inspections, ` +
    `${rows[0]?.actions ?? '?'} follow-up actions, loaded in ${seconds.toFixed(1)} s`
  );
}

const READ_ROUTES: Record<BareReadRoute, { fill(pglite: PGlite, database: Database): Promise<string>; route(app: FastifyInstance, db: Db): void }> = {
  ping: {
    fill: () => Promise.resolve('nothing'),
    route: (app, db) =>
      app.get('/ping', async () => {
        await db.execute(sql`select 1`);
        return { status: 'ok' };
      }),
  },
  curves: {
    async fill(pglite) {
      const { rows } = await nextMessage<CurvesMessage>();
      const names = COPIED_CURVE_COLUMNS.join(', ');
      const insert = `insert into consolidated_curve_details (${names}) select ${names} from json_populate_recordset(null::consolidated_curve_details, $1::json)`;
      await pglite.query(insert, [JSON.stringify(rows)]);
      await pglite.exec('analyze consolidated_curve_details');
      return `a copy of the register's ${rows.length} curves read through the API`;
    },
    route: (app, db) =>
      app.get('/curves', async (request) => {
        const { division, limit = BARE_PAGE, offset = 0 } = request.query as { division?: string; limit?: string; offset?: string };
        const where = division ? eq(curves.divisionRailway, division) : undefined;
        return { curves: await db.select().from(curves).where(where).orderBy(...REGISTER_ORDER).limit(Number(limit)).offset(Number(offset)) };
      }),
  },
  inspections: {
    fill: generatedRecords,
    route: (app, db) =>
      app.get('/inspections', async (request) => {
        const { offset = 0 } = request.query as { offset?: string };
        // Spelled as inspection_logs_submitted_idx is built (and as the product's list spells it), so the index is used.
        const newestFirst = [sql`${inspectionLogs.submittedAt} desc nulls last`, sql`${inspectionLogs.id} desc nulls last`];
        return { logs: await db.select().from(inspectionLogs).orderBy(...newestFirst).limit(BARE_PAGE).offset(Number(offset)) };
      }),
  },
  actions: {
    fill: generatedRecords,
    route: (app, db) =>
      app.get('/actions', async (request) => {
        const { division, offset = 0 } = request.query as { division?: string; offset?: string };
        return { actions: await listActions(db, { division, state: 'open' }, { limit: BARE_PAGE, offset: Number(offset) }) };
      }),
  },
  aggregate: {
    fill: generatedRecords,
    route: (app, db) =>
      app.get('/aggregate', async (request) => {
        const { division, from, to } = request.query as { division?: string; from: string; to: string };
        return { cof: await cofByPeriod(db, { division }, [{ start: from, end: to }], DEFAULT_COF_ALERT_THRESHOLD) };
      }),
  },
  login: {
    async fill(_pglite, database) {
      const employeeId = process.env.BARE_USER ?? '';
      const passwordHash = await hashPassword(process.env.BARE_PASSWORD ?? '');
      await database.db.insert(users).values({ employeeId, name: 'Bench', role: 'Technician', passwordHash });
      return `one user ${employeeId} whose hash the server's hashPassword made (the same argon2id parameters)`;
    },
    route: (app, db) =>
      app.post('/login', async (request, reply) => {
        const body = request.body as { employeeId?: string; password?: string } | null;
        const byKey = sql`lower(${users.employeeId}) = lower(${body?.employeeId ?? ''})`;
        const [user] = await db.select({ id: users.id, passwordHash: users.passwordHash }).from(users).where(byKey).limit(1);
        const ok = user ? await verify(user.passwordHash, body?.password ?? '').catch(() => false) : false;
        return ok ? { ok: true, id: user?.id } : reply.status(401).send({ ok: false });
      }),
  },
};

const UPLOAD_LIMITS = { fileSize: 10 * 1024 * 1024, files: 1, fields: 4, parts: 6, fieldSize: 64 * 1024, headerPairs: 100 };

/** What `upload-durable` adds to `upload` once the file is streamed and hashed: the product's durability (DiskBlobStore) and one row. */
interface Durable {
  /** Renames the flushed file to `ab/cd/<hash>` and flushes that folder, as DiskBlobStore's commit does. */
  keep(temp: string, hash: string): Promise<void>;
  record(hash: string, sizeBytes: number, metadata: unknown): Promise<void>;
}

async function uploadRoute(app: FastifyInstance, dir: string, durable?: Durable): Promise<void> {
  await app.register(fastifyMultipart, { limits: UPLOAD_LIMITS });
  app.post('/upload', async (request, reply) => {
    let metadata: unknown;
    let stored: { hash: string; sizeBytes: number } | undefined;
    for await (const part of request.parts()) {
      if (part.type === 'field') {
        if (part.fieldname === 'metadata') metadata = JSON.parse(String(part.value));
        continue;
      }
      const hasher = createHash('sha256');
      let sizeBytes = 0;
      const temp = path.join(dir, `incoming-${randomUUID()}.tmp`);
      const hashing = async function* (chunks: AsyncIterable<Buffer>) {
        for await (const chunk of chunks) {
          hasher.update(chunk);
          sizeBytes += chunk.length;
          yield chunk;
        }
      };
      try {
        // flush: the file is fsynced before it is closed, as DiskBlobStore's stage does before it names it.
        await pipeline(part.file, hashing, createWriteStream(temp, { flush: durable !== undefined }));
        const hash = hasher.digest('hex');
        if (durable) await durable.keep(temp, hash);
        else await rename(temp, path.join(dir, hash));
        stored = { hash, sizeBytes };
      } catch (error) {
        await rm(temp, { force: true });
        throw error;
      }
    }
    if (!stored || metadata === undefined) return reply.code(400).send({ error: 'send metadata and file' });
    if (durable) await durable.record(stored.hash, stored.sizeBytes, metadata);
    return reply.code(201).send(stored);
  });
}

/** The product's steps after the flushed bytes (server/storage/disk-blob-store.ts): rename, fsync of the folder (and of new folders' parents). */
function durableFiles(dir: string): Durable['keep'] {
  return async (temp, hash) => {
    const target = path.join(dir, hash.slice(0, 2), hash.slice(2, 4));
    await makeDurableDir(target);
    await rename(temp, path.join(target, hash));
    await syncDir(target);
  };
}

/** One row per upload, one autocommitted INSERT (its own transaction), in a small table of its own. */
async function uploadRows(db: Db): Promise<Durable['record']> {
  await db.execute(sql`create table if not exists bare_uploads (
    id bigserial primary key, hash text not null, size_bytes integer not null, metadata jsonb not null, stored_at timestamptz not null default now())`);
  return async (hash, sizeBytes, metadata) => {
    await db.execute(sql`insert into bare_uploads (hash, size_bytes, metadata) values (${hash}, ${sizeBytes}, ${JSON.stringify(metadata)}::jsonb)`);
  };
}

const ZIP_MTIME = new Date('2024-01-01T00:00:00Z'); // the server gives each entry its photo's taken-at time: same size

async function zipRoute(app: FastifyInstance): Promise<void> {
  const { files } = await nextMessage<ZipFilesMessage>();
  app.post('/zip', async (request, reply) => {
    const zip = new ZipFile();
    for (const id of (request.body as { imageIds?: string[] } | null)?.imageIds ?? []) {
      const file = files[id];
      if (!file) return reply.status(404).send({ error: `no photo for ${id}` });
      zip.addReadStreamLazy(file.name, { size: file.size, compress: false, mtime: ZIP_MTIME }, (ready) => ready(null, createReadStream(file.path)));
    }
    const totalSize = await new Promise<number>((resolve) => zip.end({}, resolve));
    void reply.header('content-type', 'application/zip');
    if (totalSize > 0) void reply.header('content-length', String(totalSize));
    return reply.send(zip.outputStream);
  });
}

serveAsChild<BareReady>(async () => {
  const kind = process.env.BARE_KIND as BareRoute;
  const app = Fastify({ logger: false, bodyLimit: 1024 * 1024 });
  let note = '';
  let close = () => Promise.resolve();
  if (kind === 'upload') await uploadRoute(app, process.env.BARE_UPLOAD_DIR ?? '');
  else if (kind === 'upload-durable') {
    const dir = process.env.BARE_UPLOAD_DIR ?? '';
    // On PGlite a database on disk, not in memory: the product's commits are written to disk too.
    const opened = await openBareDb(10, { pgliteDir: process.env.BARE_PGLITE_DIR });
    await uploadRoute(app, dir, { keep: durableFiles(dir), record: await uploadRows(opened.db) });
    ({ close } = opened);
    note = opened.where;
  } else if (kind === 'zip') await zipRoute(app);
  else {
    const read = READ_ROUTES[kind];
    if (!read) throw new Error(`unknown BARE_KIND '${kind}'`);
    const opened = await openBareDb(10);
    const held = opened.pglite ? await read.fill(opened.pglite, opened.database) : '';
    read.route(app, opened.db);
    ({ close } = opened);
    note = held ? `${opened.where} holding ${held}` : opened.where;
  }
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  return { ready: { port: typeof address === 'object' && address ? address.port : 0, note }, stop: () => app.close().then(close) };
});
