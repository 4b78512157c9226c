/**
 * The bare baseline of DESIGN section 10 for API reads, run as a child process (forked by
 * bench/lib/bare-read.ts, so that it has a process and an event loop of its own, as the server
 * has): a Fastify app with one route and no hooks, no sign-in, no cache, no compression, no
 * validation, reading one indexed page of the curve register through Drizzle:
 *
 *   GET /page?division=&offset=  ->  {curves: [50 rows of consolidated_curve_details]}
 *   ordered by (division_railway, section, no, id): curves_register_order_idx
 *
 * BARE_DATABASE_URL set: the server's own PostgreSQL database (a pool of 10, as the server's).
 * Unset: an in-memory PGlite in this process made by the app's migrations, filled with the rows
 * the parent sends (the server holds its PGlite data dir, so it cannot be read from here).
 *
 * Messages: parent -> child {type: 'curves', rows} (PGlite only); child -> parent
 * {type: 'ready', port} or {type: 'failed', message}.
 */
import { PGlite } from '@electric-sql/pglite';
import { asc, eq } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import Fastify from 'fastify';
import pg from 'pg';
import { openDatabase } from '../../server/db/client.js';
import { consolidatedCurveDetails as curves } from '../../server/db/schema.js';
import { BARE_PAGE, type BareMessage, COPIED_CURVE_COLUMNS, type CurvesMessage } from './bare-read.js';

type Db = PgDatabase<PgQueryResultHKT>;

function nextMessage<T>(): Promise<T> {
  return new Promise((resolve) => process.once('message', (message) => resolve(message as T)));
}

async function openBare(): Promise<{ db: Db; close: () => Promise<void> }> {
  const url = process.env.BARE_DATABASE_URL;
  if (url) {
    const pool = new pg.Pool({ connectionString: url, max: 10 });
    pool.on('error', () => undefined);
    return { db: drizzlePg(pool) as unknown as Db, close: () => pool.end() };
  }
  const pglite = new PGlite();
  const database = await openDatabase({ pglite });
  await database.migrate();
  const { rows } = await nextMessage<CurvesMessage>();
  const names = COPIED_CURVE_COLUMNS.join(', ');
  await pglite.query(
    `insert into consolidated_curve_details (${names}) select ${names} from json_populate_recordset(null::consolidated_curve_details, $1::json)`,
    [JSON.stringify(rows)],
  );
  await pglite.exec('analyze consolidated_curve_details');
  return { db: drizzlePglite(pglite) as unknown as Db, close: () => database.close() };
}

async function main(): Promise<void> {
  const { db, close } = await openBare();
  const app = Fastify({ logger: false });
  app.get('/page', async (request) => {
    const query = request.query as { division?: string; offset?: string };
    const rows = await db
      .select()
      .from(curves)
      .where(query.division ? eq(curves.divisionRailway, query.division) : undefined)
      .orderBy(asc(curves.divisionRailway), asc(curves.section), asc(curves.no), asc(curves.id))
      .limit(BARE_PAGE)
      .offset(Number(query.offset ?? 0));
    return { curves: rows };
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
  process.send?.({ type: 'ready', port } satisfies BareMessage);
}

main().catch((error: unknown) => {
  process.send?.({ type: 'failed', message: error instanceof Error ? error.message : String(error) } satisfies BareMessage);
  process.exit(1);
});
