/**
 * The embedded database's dump in chunks (issue 28): writes made between its chunks never leave
 * a table half old and half new. Every table in the dump is the table as of one moment (here the
 * end, since the writes stop with the dump), a table written during its read is read again, a
 * stream of writes ends in one final read of what still changes, and the rows load back into an
 * empty database to the same hashes. The writes run between chunks by construction (the test's
 * file writer does them while it takes a chunk's rows), not by timing.
 */
import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inspectionLogs, users } from '../../db/schema.js';
import { buildTestApp, type TestApp } from '../../test/build-test-app.js';
import { TECHNICIAN, createAndSignIn } from '../../test/factories.js';
import { makeDistinctPhotos, serviceVisitMetadata, uploadForm } from '../../test/photos.js';
import { openEmptyTestDatabase } from '../../test/test-database.js';
import { backedUpTables, hashTable, LineHash, loadTable, photoHashesOf, type TableShape } from './database-dump.js';
import { type DatabaseSnapshot, dumpInPasses, MAX_PASSES } from './dump-in-passes.js';

const CHUNK = 3;
const RECORDS = 10;

let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp();
  const { technician } = await createAndSignIn(t, { technician: TECHNICIAN });
  const photos = await makeDistinctPhotos(RECORDS, 200, 150, 41);
  for (const [n, photo] of photos.entries()) {
    const metadata = serviceVisitMetadata({ divisionRailway: 'RTM/WR', curveNumber: String(n) });
    const response = await t.app.inject({ method: 'POST', url: '/api/inspections/upload', headers: { cookie: technician }, payload: uploadForm(metadata, photo) });
    expect(response.statusCode, response.body).toBe(201);
  }
  // The photo worker's own writes (photo_state) done before the dumps start.
  await t.photosSettled();
}, 120_000);

afterAll(() => t.close());

interface Dumped {
  snapshot: DatabaseSnapshot;
  lines: Map<string, string[]>;
  /** How many times each table was read (again when it changed meanwhile). */
  reads: Map<string, number>;
}

/**
 * A dump in chunks of CHUNK rows whose writer calls `between` after the first chunk of every
 * read of inspection_logs: the chunk's transaction is over, the next chunks are still to come.
 */
async function dumpWith(between: (read: number) => Promise<void>): Promise<Dumped> {
  const lines = new Map<string, string[]>();
  const reads = new Map<string, number>();
  const snapshot = await dumpInPasses(t.database.db, {
    chunkRows: CHUNK,
    async writeTable(shape, rows) {
      const read = (reads.get(shape.name) ?? 0) + 1;
      reads.set(shape.name, read);
      const kept: string[] = [];
      const hash = new LineHash();
      for await (const line of rows) {
        if (shape.name === 'inspection_logs' && kept.length === CHUNK) await between(read);
        kept.push(line);
        hash.add(line);
      }
      lines.set(shape.name, kept);
      return { name: shape.name, file: `database/${shape.name}.ndjson.gz`, rows: hash.rows, sha256: hash.digest(), bytes: 0 };
    },
  });
  return { snapshot, lines, reads };
}

/** Writes to rows already read, a new row, and another table, all in one transaction. */
async function writeAcrossTables(n: number): Promise<void> {
  await t.database.db.transaction(async (tx) => {
    const [first] = await tx.select().from(inspectionLogs).orderBy(inspectionLogs.id).limit(1);
    if (!first) throw new Error('no records');
    await tx.update(inspectionLogs).set({ technicianName: `Changed during the dump ${n}` }).where(eq(inspectionLogs.id, first.id));
    const { id: _id, ...copy } = first;
    await tx.insert(inspectionLogs).values({ ...copy, recordId: `INS-DUMP-${n}-${randomUUID().slice(0, 8)}`, clientSubmissionId: randomUUID(), imageHash: null });
    await tx.update(users).set({ name: `Renamed ${n}` }).where(eq(users.employeeId, TECHNICIAN.employeeId));
  });
}

/** Each table dumped equals the table now (one snapshot), and the photo list is the records' own. */
async function expectTheDatabaseNow(dumped: Dumped, shapes: TableShape[]) {
  for (const shape of shapes) {
    const entry = dumped.snapshot.tables.find((table) => table.name === shape.name);
    expect(entry?.rows, shape.name).toBe(dumped.lines.get(shape.name)?.length);
    expect({ rows: entry?.rows, sha256: entry?.sha256 }, shape.name).toEqual(await hashTable(t.database.db, shape));
  }
  expect(dumped.snapshot.tables.map((table) => table.name)).toEqual(shapes.map((shape) => shape.name));
  expect(dumped.snapshot.photoHashes).toEqual(await photoHashesOf(t.database.db));
}

describe("the embedded database's dump in chunks, with writes between the chunks", () => {
  let shapes: TableShape[];
  beforeAll(async () => {
    shapes = await backedUpTables(t.database.db);
  });

  it('every backed-up table counts its writes, so none needs a long read', () => {
    expect(shapes.filter((shape) => !shape.counted || !shape.keyTypes).map((shape) => shape.name)).toEqual([]);
  });

  it('with no writes, reads each table once', async () => {
    const dumped = await dumpWith(async () => undefined);
    expect([...dumped.reads.values()].every((reads) => reads === 1)).toBe(true);
    expect(dumped.lines.get('inspection_logs')).toHaveLength(RECORDS);
    await expectTheDatabaseNow(dumped, shapes);
  });

  it('reads a table written during its read again, and holds the write whole', async () => {
    const before = (await t.database.db.select({ n: sql<number>`count(*)::int` }).from(inspectionLogs))[0]?.n ?? 0;
    const dumped = await dumpWith((read) => (read === 1 ? writeAcrossTables(1) : Promise.resolve()));
    expect(dumped.reads.get('inspection_logs')).toBe(2);
    const records = (dumped.lines.get('inspection_logs') ?? []).map((line) => JSON.parse(line) as { technician_name: string });
    expect(records).toHaveLength(before + 1);
    expect(records[0]?.technician_name).toBe('Changed during the dump 1');
    const technician = (dumped.lines.get('users') ?? []).map((line) => JSON.parse(line) as { employee_id: string; name: string }).find((u) => u.employee_id === TECHNICIAN.employeeId);
    expect(technician?.name).toBe('Renamed 1');
    await expectTheDatabaseNow(dumped, shapes);
  });

  it('under writes in every pass, ends with one read of what still changes, and loads back to the same hashes', { timeout: 120_000 }, async () => {
    let writes = 0;
    // Not during the last read: that is the final transaction's, which holds the one connection.
    const dumped = await dumpWith(async (read) => (read <= MAX_PASSES ? writeAcrossTables(100 + ++writes) : undefined));
    // Each chunked pass saw a write; then the final transaction read the table whole.
    expect(writes).toBe(MAX_PASSES);
    expect(dumped.reads.get('inspection_logs')).toBe(MAX_PASSES + 1);
    await expectTheDatabaseNow(dumped, shapes);

    // A restore's load and check: the rows go into an empty database and hash as dumped.
    const empty = await openEmptyTestDatabase();
    try {
      await empty.migrate();
      for (const shape of shapes) {
        const loaded = await loadTable(empty.db, shape, (async function* () {
          yield* dumped.lines.get(shape.name) ?? [];
        })());
        expect(loaded, shape.name).toBe(dumped.lines.get(shape.name)?.length);
      }
      for (const shape of shapes) {
        const entry = dumped.snapshot.tables.find((table) => table.name === shape.name);
        expect(await hashTable(empty.db, shape), shape.name).toEqual({ rows: entry?.rows, sha256: entry?.sha256 });
      }
    } finally {
      await empty.close();
    }
  });
});
