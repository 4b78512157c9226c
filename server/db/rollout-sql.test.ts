/**
 * The rollout records read in SQL answer what common/rules/rollout.ts answers on the same
 * entries: every shape the sheets use, the typos the rule refuses and the spaces it trims.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rolloutHasMachine, stageEntry } from '../../common/rules/rollout.js';
import { openTestDatabase } from '../test/test-database.js';
import type { Database } from './client.js';
import { rolloutMachineSql, stageDoneSql } from './rollout-sql.js';

const ENTRIES = [
  // Dates in every shape the sheets use, single digits, month names in any case, leap days.
  '14.03.2025',
  '14-03-2025',
  '14/03/2025',
  '2025-03-14',
  '14-Mar-2025',
  '14 March 2025',
  '4.3.2025',
  '1-Apr-2025',
  '14-MAR-2025',
  '29.02.2024',
  '29-Feb-2024',
  '31.01.2025',
  // Impossible dates and other typos.
  '31.02.2025',
  '29.02.2025',
  '2025-02-29',
  '29-Feb-2025',
  '31-Jun-2025',
  '32.01.2025',
  '00.01.2025',
  '14.13.2025',
  '2025-13-01',
  '2025-01-00',
  '14-Xyz-2025',
  '14.03.25',
  '2025/03/14',
  '2025-3-14',
  '14032025',
  '01.01.1899',
  '01.01.3000',
  // Words, in any case, and what is not one.
  'Done',
  'DONE',
  'completed',
  'Complete',
  'yes',
  'Pending',
  'No',
  'Donee',
  'Done on 14.03.2025',
  'done.',
  '-',
  '',
  // Spaces around an entry, as pasted from a sheet: tabs, line ends, non-breaking spaces.
  '  14.03.2025  ',
  '\t2025-03-14\n',
  '\u00a0Done\u00a0',
  '\u202f14-Mar-2025\u3000',
  '14\u00a0Mar\u00a02025',
  '   ',
  // Digits JavaScript's \d does not take.
  '١٤.03.2025',
];

let database: Database;

beforeAll(async () => {
  database = await openTestDatabase();
});

afterAll(async () => {
  await database?.close();
});

async function valuesOf(entries: ReadonlyArray<string | null>, expression: (entry: ReturnType<typeof sql>) => ReturnType<typeof sql>): Promise<boolean[]> {
  const answers: boolean[] = [];
  for (const entry of entries) {
    const result = (await database.db.execute(sql`select ${expression(sql`${entry}::text`)} as done`)) as unknown as { rows: { done: boolean }[] };
    answers.push(result.rows[0]?.done ?? false);
  }
  return answers;
}

describe('the rollout records in SQL', () => {
  it('reads a stage entry as stageEntry does', async () => {
    const entries = [...ENTRIES, null];
    expect(await valuesOf(entries, stageDoneSql)).toEqual(entries.map((e) => stageEntry(e).done));
    // The list reaches both answers.
    expect(new Set(entries.map((e) => stageEntry(e).done))).toEqual(new Set([true, false]));
  });

  it('says a record has a machine as rolloutHasMachine does', async () => {
    const pairs: Array<[string | null, string | null]> = [
      ['14.03.2025', 'Pending'],
      ['Pending', '02.04.2025'],
      ['Pending', 'Pending'],
      [null, null],
      ['Done', null],
      ['31.02.2025', 'tbd'],
    ];
    const answers: boolean[] = [];
    for (const [machine, commissioned] of pairs) {
      const result = (await database.db.execute(
        sql`select ${rolloutMachineSql(sql`${machine}::text`, sql`${commissioned}::text`)} as machine`,
      )) as unknown as { rows: { machine: boolean }[] };
      answers.push(result.rows[0]?.machine ?? false);
    }
    expect(answers).toEqual(pairs.map(([machine, commissioned]) => rolloutHasMachine({ machine, commissioned })));
  });
});
