/**
 * The table versions read for the caches: shared by callers asking at once, yet never older
 * than a write committed before a caller asked.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../test/test-database.js';
import type { Database, Db } from './client.js';
import { readTableVersions } from './versioned-cache.js';

let database: Database;

beforeAll(async () => {
  database = await openTestDatabase();
});

afterAll(async () => {
  await database.close();
});

const bump = (table: string) =>
  database.db.execute(
    sql`insert into change_counter_shards (table_name, shard, version) values (${table}, 0, 1) on conflict (table_name, shard) do update set version = change_counter_shards.version + 1`,
  );

describe('readTableVersions', () => {
  it('answers 0 for a table never written, and each table asked for', async () => {
    await bump('stations');
    const versions = await readTableVersions(database.db, ['stations', 'hkm_controller_mapping']);
    expect([...versions.keys()]).toEqual(['stations', 'hkm_controller_mapping']);
    expect(versions.get('hkm_controller_mapping')).toBe(0);
    expect(versions.get('stations')).toBeGreaterThan(0);
  });

  it('sees a write committed before the call, even while an earlier read is on its way', async () => {
    // A database whose statements each see the writes committed when they began, and end when the test says.
    let committed = 0;
    const statements: Array<() => void> = [];
    const db = {
      select: () => ({
        from: () =>
          new Promise((resolve) => {
            const seen = committed;
            statements.push(() => resolve([{ tableName: 'curve_records', version: seen }]));
          }),
      }),
    } as unknown as Db;
    const settle = async () => {
      await new Promise((resolve) => setImmediate(resolve));
      statements.shift()?.();
    };
    const first = readTableVersions(db, ['curve_records']);
    committed = 1;
    // Asked after the write, while the first read is on its way: not answered by that read.
    const second = readTableVersions(db, ['curve_records']);
    const third = readTableVersions(db, ['curve_records']);
    await settle();
    expect((await first).get('curve_records')).toBe(0);
    await settle();
    expect((await second).get('curve_records')).toBe(1);
    expect((await third).get('curve_records')).toBe(1);
    // The two callers asking during the first read shared one statement.
    expect(statements).toHaveLength(0);
    const fourth = readTableVersions(db, ['curve_records']);
    await settle();
    expect((await fourth).get('curve_records')).toBe(1);
  });

  it('gives callers asking at once the same versions', async () => {
    const answers = await Promise.all(Array.from({ length: 20 }, () => readTableVersions(database.db, ['inspection_logs', 'stations'])));
    for (const answer of answers.slice(1)) expect(answer).toEqual(answers[0]);
  });
});
