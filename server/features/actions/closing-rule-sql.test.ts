/**
 * The SQL that finds a later fix of a late-arriving fault (laterFixOf) answers what the shared
 * closing rule (kindsClosedBy, which the upload and the phone's outbox apply) answers on the
 * same visits: every service update with the machine working or not, CoF readings below, at
 * and above the alert threshold.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTION_KINDS, kindsClosedBy } from '../../../common/rules/follow-up-actions.js';
import { SERVICE_UPDATES } from '../../../common/constants.js';
import type { Database } from '../../db/client.js';
import type { InspectionRow } from '../../db/schema.js';
import { inspectionRow, insertInspectionRows } from '../../test/inspections.js';
import { openTestDatabase } from '../../test/test-database.js';
import { laterFixOf } from './repository.js';
import { visitFactsOf } from './service.js';

const THRESHOLD = 0.25;
const FAULT_DATE = '2026-11-18';
const VISIT_DATE = '2026-11-20';

const SERVICE_VISITS = SERVICE_UPDATES.flatMap((serviceUpdate) =>
  [true, false].map((isMachineWorking) => ({ type: 'Service' as const, serviceUpdate, isMachineWorking })),
);
// At the threshold passes; one hundredth above it (the column's precision) does not.
const COF_VISITS = ['0.10', '0.24', '0.25', '0.26', '0.40'].map((cofValue) => ({ type: 'CoF' as const, cofValue }));

let database: Database;
let visits: InspectionRow[];

beforeAll(async () => {
  database = await openTestDatabase();
  // One curve per visit, so each later-fix look-up sees that visit alone.
  const rows = [...SERVICE_VISITS, ...COF_VISITS].map((visit, i) => inspectionRow({ ...visit, date: VISIT_DATE, curveNumber: `R${i}` }));
  visits = await insertInspectionRows(database.db, rows);
});

afterAll(async () => {
  await database?.close();
});

const curveOf = (row: InspectionRow) => ({ divisionRailway: row.divisionRailway, section: row.section, curveNumber: row.curveNumber, line: row.line });

describe('a later fix in SQL and the closing rule', () => {
  it('agree on every visit and kind', async () => {
    const disagreements: string[] = [];
    let fixes = 0;
    for (const row of visits) {
      const byRule = kindsClosedBy(visitFactsOf(row), THRESHOLD);
      for (const kind of ACTION_KINDS) {
        const fix = await laterFixOf(database.db, curveOf(row), kind, FAULT_DATE, THRESHOLD);
        if (fix) fixes += 1;
        if ((fix?.recordId === row.recordId) !== byRule.includes(kind)) {
          disagreements.push(`${row.type} ${row.serviceUpdate ?? row.cofValue} working=${row.isMachineWorking} ${kind}: SQL ${fix ? 'fixes' : 'does not fix'}`);
        }
      }
    }
    expect(disagreements).toEqual([]);
    // Service working fine with the machine working fixes three kinds; CoF 0.10, 0.24 and 0.25 one each.
    expect(fixes).toBe(3 + 3);
  });

  it('finds no fix on the visit day itself, nor on another line of the curve', async () => {
    const fine = visits.find((v) => v.type === 'Service' && v.serviceUpdate === 'working-fine' && v.isMachineWorking);
    if (!fine) throw new Error('no working-fine visit');
    expect(await laterFixOf(database.db, curveOf(fine), 'part-stolen', VISIT_DATE, THRESHOLD)).toBeNull();
    expect(await laterFixOf(database.db, { ...curveOf(fine), line: 'Down' }, 'part-stolen', FAULT_DATE, THRESHOLD)).toBeNull();
  });
});
