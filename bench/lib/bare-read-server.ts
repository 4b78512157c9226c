/**
 * The bare baselines (docs/architecture.md, 'Budgets') for API reads (and sign-in), run as a child process
 * (forked by bench/lib/bare-read.ts, so that it has a process and an event loop of its own, as the
 * server has): a Fastify app with no hooks, no sign-in, no cache, no compression, no validation,
 * each route doing the least the product's route could, through Drizzle:
 *
 *   GET /page?division=&offset=  ->  {curves: [50 rows of consolidated_curve_details]}
 *     ordered by (division_railway, section, no, id): curves_register_order_idx
 *   GET /curves?limit=&offset=   ->  {curves: [limit (default 1000) rows]}, the same order
 *   GET /inspections?offset=     ->  {logs: [50 rows of inspection_logs]}, newest first
 *     (submitted_at desc nulls last, id desc nulls last: inspection_logs_submitted_idx)
 *   GET /ping                    ->  {status: 'ok'} after one `select 1`
 *   POST /login {employeeId, password}  ->  200 {ok: true} or 401: one read of the user by
 *     lower(employee_id) (users_employee_id_lower_uq, the product's sign-in key) and one argon2id
 *     verify (@node-rs/argon2) of the stored hash, whose parameters are the ones it was made with
 *
 * BARE_DATABASE_URL set: the server's own PostgreSQL database (a pool of 10, as the server's).
 * Unset: an in-memory PGlite in this process made by the app's migrations, holding (BARE_DATA):
 *   'curves'   the rows the parent sends (a copy of the register read through the API)
 *   'records'  the demo seed and the bench generator's records, as the runner loaded the
 *              server's (BARE_TODAY, BARE_COUNT, BARE_CURVES: the same seed, day and sizes)
 *   'user'     one user, BARE_USER, with a hash of BARE_PASSWORD made by the server's
 *              hashPassword (server/security/password.ts: the same argon2id parameters)
 *   'none'     nothing (for /ping)
 *
 * Messages: parent -> child {type: 'curves', rows} (PGlite 'curves' only); child -> parent
 * {type: 'ready', port, note} or {type: 'failed', message}.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { PGlite } from '@electric-sql/pglite';
import { verify } from '@node-rs/argon2';
import { asc, eq, sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import Fastify from 'fastify';
import pg from 'pg';
import { type Database, openDatabase } from '../../server/db/client.js';
import { consolidatedCurveDetails as curves, inspectionLogs, users } from '../../server/db/schema.js';
import { seedDemoData } from '../../server/db/seed/index.js';
import { hashPassword } from '../../server/security/password.js';
import { DiskBlobStore } from '../../server/storage/disk-blob-store.js';
import { generateInspections } from '../dataset/generate-inspections.js';
import { BARE_PAGE, type BareData, type BareMessage, COPIED_CURVE_COLUMNS, type CurvesMessage } from './bare-read.js';

type Db = PgDatabase<PgQueryResultHKT>;

function nextMessage<T>(): Promise<T> {
  return new Promise((resolve) => process.once('message', (message) => resolve(message as T)));
}

async function fill(pglite: PGlite, database: Database, data: BareData): Promise<string> {
  switch (data) {
    case 'none':
      return 'nothing (an empty in-memory PGlite)';
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
      const started = performance.now();
      const today = process.env.BARE_TODAY ?? '';
      const blobsDir = mkdtempSync(path.join(os.tmpdir(), 'hkmi-bench-bare-read-'));
      try {
        await seedDemoData(database.db, new DiskBlobStore(blobsDir), { today });
        await generateInspections(
          { query: async <R>(text: string, params?: unknown[]) => (await pglite.query<R>(text, params)).rows },
          { count: Number(process.env.BARE_COUNT), curves: Number(process.env.BARE_CURVES) || undefined, today, blobsDir },
        );
      } finally {
        rmSync(blobsDir, { recursive: true, force: true });
      }
      const { rows } = await pglite.query<{ n: number }>('select count(*)::int as n from inspection_logs');
      return (
        `the demo seed and the bench generator's records as the server's were loaded (same seed, day and sizes): ` +
        `${rows[0]?.n ?? '?'} inspections, loaded in ${((performance.now() - started) / 1000).toFixed(1)} s`
      );
    }
    case 'user': {
      const employeeId = process.env.BARE_USER ?? '';
      await database.db.insert(users).values({
        employeeId,
        name: 'Bench',
        role: 'Technician',
        passwordHash: await hashPassword(process.env.BARE_PASSWORD ?? ''),
      });
      return `one user ${employeeId} whose hash the server's hashPassword made (the same argon2id parameters)`;
    }
  }
}

async function openBare(data: BareData): Promise<{ db: Db; close: () => Promise<void>; note: string }> {
  const url = process.env.BARE_DATABASE_URL;
  if (url) {
    const pool = new pg.Pool({ connectionString: url, max: 10 });
    pool.on('error', () => undefined);
    return { db: drizzlePg(pool) as unknown as Db, close: () => pool.end(), note: "the server's PostgreSQL database (pg pool of 10, as the server's)" };
  }
  const pglite = new PGlite();
  const database = await openDatabase({ pglite });
  await database.migrate();
  const what = await fill(pglite, database, data);
  return {
    db: drizzlePglite(pglite) as unknown as Db,
    close: () => database.close(),
    note: `an in-memory PGlite in its own process (the app's migrations) holding ${what}`,
  };
}

const REGISTER_ORDER = [asc(curves.divisionRailway), asc(curves.section), asc(curves.no), asc(curves.id)];

async function main(): Promise<void> {
  const data = (process.env.BARE_DATA || 'curves') as BareData;
  const { db, close, note } = await openBare(data);
  const app = Fastify({ logger: false });
  app.get('/page', async (request) => {
    const query = request.query as { division?: string; offset?: string };
    const rows = await db
      .select()
      .from(curves)
      .where(query.division ? eq(curves.divisionRailway, query.division) : undefined)
      .orderBy(...REGISTER_ORDER)
      .limit(BARE_PAGE)
      .offset(Number(query.offset ?? 0));
    return { curves: rows };
  });
  app.get('/curves', async (request) => {
    const query = request.query as { limit?: string; offset?: string };
    const rows = await db
      .select()
      .from(curves)
      .orderBy(...REGISTER_ORDER)
      .limit(Number(query.limit ?? 1000))
      .offset(Number(query.offset ?? 0));
    return { curves: rows };
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
