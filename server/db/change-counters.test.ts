/**
 * The tables' versions (change_counter_shards, summed by the change_counters view): a committed
 * write moves its table's version and a rolled-back one does not; concurrent writers to one
 * table do not wait for each other's commit; and the upgrade to shards keeps every version.
 */
import { rm } from 'node:fs/promises';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { migrationsUpTo, readJournal } from '../features/backups/migrations.js';
import { openEmptyTestDatabase, openTestDatabase, testDatabaseKind } from '../test/test-database.js';
import type { Database, DbOrTx } from './client.js';
import { readTableVersions } from './versioned-cache.js';

const opened: Database[] = [];
afterAll(async () => {
  await Promise.all(opened.map((database) => database.close()));
});

async function open(empty = false): Promise<Database> {
  const database = empty ? await openEmptyTestDatabase() : await openTestDatabase();
  opened.push(database);
  return database;
}

let stationNo = 0;
const addStation = (db: DbOrTx) => {
  stationNo += 1;
  return db.execute(
    sql`insert into stations (no, station_name, station_code, section, division_railway) values (${stationNo}, 'Test', ${`T${stationNo}`}, 'Test section', 'RTM/WR')`,
  );
};

const stationsVersion = async (db: DbOrTx) => {
  const result = (await db.execute(sql`select version from change_counters where table_name = 'stations'`)) as unknown as { rows: Array<{ version: string | number }> };
  return Number(result.rows[0]?.version ?? 0);
};

describe('change counters', () => {
  it('move on a committed write, and not on a rolled-back one', async () => {
    const { db } = await open();
    const before = await stationsVersion(db);
    await addStation(db);
    const afterCommit = await stationsVersion(db);
    expect(afterCommit).toBeGreaterThan(before);
    await expect(
      db.transaction(async (tx) => {
        await addStation(tx);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await stationsVersion(db)).toBe(afterCommit);
    expect((await readTableVersions(db, ['stations'])).get('stations')).toBe(afterCommit);
  });

  // PGlite has one connection, so its writers never overlap.
  it.runIf(testDatabaseKind === 'postgres')('let concurrent writers to one table commit without waiting for each other', async () => {
    const { db } = await open();
    await addStation(db);
    const before = await stationsVersion(db);
    let secondCommitted!: () => void;
    const secondDone = new Promise<void>((resolve) => (secondCommitted = resolve));
    let firstWrote!: () => void;
    const firstWriting = new Promise<void>((resolve) => (firstWrote = resolve));
    // The first writer keeps its transaction open until the second has committed: with one
    // counter row per table the second would wait for the first's lock, and neither would end.
    const first = db.transaction(async (tx) => {
      await addStation(tx);
      firstWrote();
      await secondDone;
    });
    await firstWriting;
    await db.transaction(async (tx) => {
      await addStation(tx);
    });
    expect(await stationsVersion(db)).toBeGreaterThan(before);
    secondCommitted();
    await first;
    expect(await stationsVersion(db)).toBeGreaterThanOrEqual(before + 2);
  });

  it('keep every version through the upgrade to shards (migration 0015)', async () => {
    const database = await open(true);
    const before = await migrationsUpTo((await readJournal()).entries.findIndex((e) => e.tag.startsWith('0015_')));
    try {
      await database.migrate(before);
    } finally {
      await rm(before, { recursive: true, force: true });
    }
    for (let i = 0; i < 3; i++) await addStation(database.db);
    const old = (await database.db.execute(sql`select version from change_counters where table_name = 'stations'`)) as unknown as { rows: Array<{ version: string }> };
    expect(Number(old.rows[0]?.version)).toBe(3);
    await database.migrate();
    expect(await stationsVersion(database.db)).toBe(3);
    await addStation(database.db);
    expect(await stationsVersion(database.db)).toBe(4);
  });
});
