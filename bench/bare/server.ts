/**
 * Every bare route of the bench in one child process (forked by ./start.ts, so that it has a
 * process, an event loop and an RSS of its own, as the server has): a Fastify app with no hooks,
 * sign-in, cache, compression or validation, each route doing the least the product's could.
 * BARE_KIND picks the set:
 *
 * 'read' (the budget table's "bare Fastify + Drizzle route reading one indexed page of the same table"):
 *   GET /page?division=&offset=  ->  {curves: 50 rows of consolidated_curve_details}, register order
 *   GET /curves?limit=&offset=   ->  {curves: limit (default 1000) rows}, the same order
 *   GET /inspections?offset=     ->  {logs: 50 rows of inspection_logs}, newest first
 *     (submitted_at desc nulls last, id desc nulls last: inspection_logs_submitted_idx)
 *   GET /ping                    ->  {status: 'ok'} after one `select 1`
 *   POST /login {employeeId, password}  ->  200 or 401: one read of the user by lower(employee_id)
 *     (the product's sign-in key) and one argon2id verify (@node-rs/argon2) of the stored hash
 *   On PostgreSQL the server's database (a pool of 10, as the server's); on PGlite an in-memory
 *   one holding BARE_DATA: 'curves' (the rows the parent sends, a copy of the register read
 *   through the API), 'records' (./database.ts: as the server's were loaded), 'user' (BARE_USER
 *   with a hash of BARE_PASSWORD made by the server's hashPassword) or 'none'.
 * 'upload' ("a bare Fastify route streaming the same multipart to a file with sha256"):
 *   POST /upload (multipart `metadata` then `file`)  ->  201 {hash, sizeBytes}, the file streamed
 *   through sha256 into BARE_UPLOAD_DIR (no fsync, database or blob-store layout)
 * 'zip' (yazl alone): POST /zip {imageIds}  ->  the photo files the parent sent first, stored,
 *   each opened when the zip reaches it, the total size up front
 *
 * Messages: child -> parent {type: 'ready', port, note} or {type: 'failed', message}.
 */
import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import fastifyMultipart from '@fastify/multipart';
import { verify } from '@node-rs/argon2';
import { asc, eq, sql } from 'drizzle-orm';
import Fastify, { type FastifyInstance } from 'fastify';
import { ZipFile } from 'yazl';
import { consolidatedCurveDetails as curves, inspectionLogs, users } from '../../server/db/schema.js';
import { hashPassword } from '../../server/security/password.js';
import { loadGeneratedRecords, openBareDb, type OpenedBareDb } from './database.js';
import { BARE_PAGE, type BareData, type BareMessage, COPIED_CURVE_COLUMNS, type CurvesMessage, type ZipFilesMessage } from './start.js';

function nextMessage<T>(): Promise<T> {
  return new Promise((resolve) => process.once('message', (message) => resolve(message as T)));
}

/** On PGlite: puts BARE_DATA into the in-memory database; says what it holds. */
async function fill({ pglite, database }: OpenedBareDb, data: BareData): Promise<string> {
  if (!pglite || !database) return '';
  switch (data) {
    case 'none':
      return 'nothing';
    case 'curves': {
      const { rows } = await nextMessage<CurvesMessage>();
      const names = COPIED_CURVE_COLUMNS.join(', ');
      await pglite.query(
        `insert into consolidated_curve_details (${names}) select ${names} from json_populate_recordset(null::consolidated_curve_details, $1::json)`,
        [JSON.stringify(rows)],
      );
      await pglite.exec('analyze consolidated_curve_details');
      return `a copy of the register's ${rows.length} curves read through the API`;
    }
    case 'records': {
      const seconds = await loadGeneratedRecords(pglite, database);
      const { rows } = await pglite.query<{ n: number }>('select count(*)::int as n from inspection_logs');
      return `the demo seed and the scale seed's records as the server's were loaded (same seed, day and sizes): ${rows[0]?.n ?? '?'} inspections, loaded in ${seconds.toFixed(1)} s`;
    }
    case 'user': {
      const employeeId = process.env.BARE_USER ?? '';
      const passwordHash = await hashPassword(process.env.BARE_PASSWORD ?? '');
      await database.db.insert(users).values({ employeeId, name: 'Bench', role: 'Technician', passwordHash });
      return `one user ${employeeId} whose hash the server's hashPassword made (the same argon2id parameters)`;
    }
  }
}

const REGISTER_ORDER = [asc(curves.divisionRailway), asc(curves.section), asc(curves.no), asc(curves.id)];

async function readRoutes(app: FastifyInstance): Promise<{ note: string; close: () => Promise<void> }> {
  const opened = await openBareDb(10);
  const held = await fill(opened, (process.env.BARE_DATA || 'curves') as BareData);
  const { db } = opened;
  app.get('/page', async (request) => {
    const query = request.query as { division?: string; offset?: string };
    const where = query.division ? eq(curves.divisionRailway, query.division) : undefined;
    return { curves: await db.select().from(curves).where(where).orderBy(...REGISTER_ORDER).limit(BARE_PAGE).offset(Number(query.offset ?? 0)) };
  });
  app.get('/curves', async (request) => {
    const query = request.query as { limit?: string; offset?: string };
    return { curves: await db.select().from(curves).orderBy(...REGISTER_ORDER).limit(Number(query.limit ?? 1000)).offset(Number(query.offset ?? 0)) };
  });
  app.get('/inspections', async (request) => {
    const query = request.query as { offset?: string };
    const rows = await db
      .select()
      .from(inspectionLogs)
      // Spelled as the index is built (and as the product's list spells it), so the index is used.
      .orderBy(sql`${inspectionLogs.submittedAt} desc nulls last`, sql`${inspectionLogs.id} desc nulls last`)
      .limit(BARE_PAGE)
      .offset(Number(query.offset ?? 0));
    return { logs: rows };
  });
  app.get('/ping', async () => {
    await db.execute(sql`select 1`);
    return { status: 'ok' };
  });
  app.post('/login', async (request, reply) => {
    const body = request.body as { employeeId?: string; password?: string } | null;
    const [user] = await db
      .select({ id: users.id, passwordHash: users.passwordHash })
      .from(users)
      .where(sql`lower(${users.employeeId}) = lower(${body?.employeeId ?? ''})`)
      .limit(1);
    const ok = user ? await verify(user.passwordHash, body?.password ?? '').catch(() => false) : false;
    if (!ok) return reply.status(401).send({ ok: false });
    return { ok: true, id: user?.id };
  });
  return { note: held ? `${opened.where} holding ${held}` : opened.where, close: opened.close };
}

/** As the server's: a photo up to 10 MB, one file, a few fields. */
const UPLOAD_LIMITS = { fileSize: 10 * 1024 * 1024, files: 1, fields: 4, parts: 6, fieldSize: 64 * 1024, headerPairs: 100 };

async function uploadRoute(app: FastifyInstance, dir: string): Promise<void> {
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
      const hashing = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          hasher.update(chunk);
          sizeBytes += chunk.length;
          done(null, chunk);
        },
      });
      const temp = path.join(dir, `incoming-${randomUUID()}.tmp`);
      try {
        await pipeline(part.file, hashing, createWriteStream(temp));
      } catch (error) {
        await rm(temp, { force: true });
        throw error;
      }
      const hash = hasher.digest('hex');
      await rename(temp, path.join(dir, hash));
      stored = { hash, sizeBytes };
    }
    if (!stored || metadata === undefined) return reply.code(400).send({ error: 'send metadata and file' });
    return reply.code(201).send(stored);
  });
}

/** A fixed entry date: the server gives each photo its taken-at time; the bytes are the same size. */
const ZIP_MTIME = new Date('2024-01-01T00:00:00Z');

async function zipRoute(app: FastifyInstance): Promise<void> {
  const { files } = await nextMessage<ZipFilesMessage>();
  app.post('/zip', async (request, reply) => {
    const ids = (request.body as { imageIds?: string[] } | null)?.imageIds ?? [];
    const zip = new ZipFile();
    for (const id of ids) {
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

async function main(): Promise<void> {
  const app = Fastify({ logger: false, bodyLimit: 1024 * 1024 });
  let note = '';
  let close = () => Promise.resolve();
  switch (process.env.BARE_KIND) {
    case 'read':
      ({ note, close } = await readRoutes(app));
      break;
    case 'upload':
      await uploadRoute(app, process.env.BARE_UPLOAD_DIR ?? '');
      break;
    case 'zip':
      await zipRoute(app);
      break;
    default:
      throw new Error(`unknown BARE_KIND '${String(process.env.BARE_KIND)}'`);
  }
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const stop = () => {
    void app
      .close()
      .then(close)
      .finally(() => process.exit(0));
  };
  process.once('SIGTERM', stop);
  process.once('disconnect', stop);
  process.send?.({ type: 'ready', port, note } satisfies BareMessage);
}

main().catch((error: unknown) => {
  process.send?.({ type: 'failed', message: error instanceof Error ? (error.stack ?? error.message) : String(error) } satisfies BareMessage);
  process.exit(1);
});
