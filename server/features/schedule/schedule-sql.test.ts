/**
 * The SQL that works the schedule out for whole registers answers exactly what the rule of
 * common/rules/schedule.ts answers on the same data (docs/architecture.md, 'Where each kind of rule lives').
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../../common/rules/dates.js';
import { rolloutHasMachine } from '../../../common/rules/rollout.js';
import { needsAttention, urgency } from '../../../common/rules/schedule.js';
import type { Db } from '../../db/client.js';
import { consolidatedCurveDetails, curveRecords } from '../../db/schema.js';
import { Random } from '../../db/seed/random.js';
import type { NewInspectionRow } from '../inspections/repository.js';
import { openTestDatabase } from '../../test/test-database.js';
import type { Database } from '../../db/client.js';
import { inspectionRow, insertInspectionRows } from '../../test/inspections.js';
import { expectedScheduleOf } from '../../test/schedule-expectations.js';
import { cofOf, sectionCountsOf, serviceOf } from './presenter.js';
import { countScheduleBySection, listSchedule } from './schedule-sql.js';

const TODAY = '2026-11-23';
const THRESHOLD = 0.25;
const CONTEXT = { today: TODAY, cofAlertThreshold: THRESHOLD };

interface TestCurve {
  divisionRailway: string;
  section: string;
  curveNumber: string;
  /** As the register holds it: sometimes a code (DN), which the records spell Down. */
  line: string;
  recordLine: 'Up' | 'Down' | 'Single';
  /** The curve's rollout record's machine and commissioned entries, or null without a record. */
  rollout: { machine: string | null; commissioned: string | null } | null;
}

/**
 * Rollout records' stage entries: a machine (dated, ticked 'Done', commissioned only) or none
 * (pending, a foundation alone, an impossible date).
 */
const ROLLOUT_ENTRIES = [
  { machine: '14.03.2026', commissioned: 'Pending' },
  { machine: 'Done', commissioned: null },
  { machine: 'Pending', commissioned: '02-Apr-2026' },
  { machine: 'Pending', commissioned: 'Pending' },
  { machine: null, commissioned: null },
  { machine: '31.02.2026', commissioned: 'tbd' },
] as const;

let database: Database;
let db: Db;
const curves: TestCurve[] = [];
const visits: NewInspectionRow[] = [];

const expectedOf = (curve: TestCurve) => expectedScheduleOf(visits, curve, TODAY, THRESHOLD, curve.rollout !== null && rolloutHasMachine(curve.rollout));

beforeAll(async () => {
  database = await openTestDatabase();
  db = database.db;
  const rng = new Random(20261123);
  const lines = [
    { line: 'Up', recordLine: 'Up' },
    { line: 'DN', recordLine: 'Down' },
    { line: 'Single', recordLine: 'Single' },
  ] as const;
  for (let i = 0; i < 120; i++) {
    const pick = lines[i % 3] ?? lines[0];
    curves.push({
      divisionRailway: i % 2 === 0 ? 'RTM/WR' : 'FZR/NR',
      section: `SEC-${i % 4}`,
      curveNumber: String(100 + Math.floor(i / 3)),
      line: pick.line,
      recordLine: pick.recordLine,
      // A fifth of the curves have no rollout record at all.
      rollout: rng.chance(0.2) ? null : { ...(ROLLOUT_ENTRIES[rng.int(0, ROLLOUT_ENTRIES.length - 1)] ?? ROLLOUT_ENTRIES[0]) },
    });
  }
  await db.insert(consolidatedCurveDetails).values(curves.map((c, i) => ({ no: i + 1, divisionRailway: c.divisionRailway, section: c.section, curveNumber: c.curveNumber, line: c.line })));
  const withRecord = curves.filter((c) => c.rollout !== null);
  await db.insert(curveRecords).values(
    withRecord.map((c, i) => ({
      no: i + 1,
      divisionRailway: c.divisionRailway,
      section: c.section,
      curveNumber: c.curveNumber,
      // The sheet spells the line its own way: sometimes as the records do (Down for DN).
      line: i % 2 === 0 ? c.line : c.recordLine,
      machineActual: c.rollout?.machine ?? null,
      commissioned: c.rollout?.commissioned ?? null,
    })),
  );
  // A record of the same section and number on another line, or of a curve not in the
  // register, lends no curve a machine.
  const stray = curves.find((c) => c.line === 'Up' && c.rollout === null);
  await db.insert(curveRecords).values([
    ...(stray ? [{ no: 900, divisionRailway: stray.divisionRailway, section: stray.section, curveNumber: stray.curveNumber, line: 'Down', machineActual: 'Done' }] : []),
    { no: 901, divisionRailway: 'RTM/WR', section: 'SEC-0', curveNumber: 'not-in-register', line: 'Up', machineActual: 'Done' },
  ]);
  for (const curve of curves) {
    // A few curves are never visited at all; the rest get 0-4 visits of each kind, with days
    // chosen around the 15- and 30-day edges and several visits on one day.
    if (rng.chance(0.1)) continue;
    for (const type of ['Service', 'CoF'] as const) {
      const count = rng.int(0, 4);
      for (let n = 0; n < count; n++) {
        const daysAgo = rng.chance(0.3) ? rng.int(14, 17) : rng.chance(0.3) ? rng.int(27, 33) : rng.int(0, 70);
        const date = addDays(TODAY, -daysAgo);
        const cofValue = ['0.18', '0.24', '0.25', '0.26', '0.31', null][rng.int(0, 5)] ?? null;
        const serviceUpdate = rng.chance(0.2) ? 'uninstall' : 'working-fine';
        visits.push(
          inspectionRow({
            date,
            type,
            divisionRailway: curve.divisionRailway,
            section: curve.section,
            curveNumber: curve.curveNumber,
            line: curve.recordLine,
            cofValue: type === 'CoF' ? cofValue : null,
            serviceUpdate: type === 'Service' ? serviceUpdate : null,
            submittedAt: new Date(`${date}T${String(8 + rng.int(0, 10)).padStart(2, '0')}:${String(rng.int(10, 59))}:00+05:30`),
          }),
        );
      }
    }
  }
  // A visit to a curve number that is not in the register changes nothing.
  visits.push(inspectionRow({ date: TODAY, section: 'SEC-0', curveNumber: 'not-in-register', line: 'Up' }));
  // Nor does a visit filed under another division naming a curve's section, number and line:
  // recent and high, it would change many curves' states if it counted.
  for (const curve of curves.filter((_, i) => i % 5 === 0)) {
    for (const type of ['Service', 'CoF'] as const) {
      visits.push(
        inspectionRow({
          date: addDays(TODAY, -1),
          type,
          divisionRailway: curve.divisionRailway === 'RTM/WR' ? 'FZR/NR' : 'RTM/WR',
          section: curve.section,
          curveNumber: curve.curveNumber,
          line: curve.recordLine,
          technicianName: 'Another Division',
          cofValue: type === 'CoF' ? '0.45' : null,
          serviceUpdate: type === 'Service' ? 'working-fine' : null,
          submittedAt: new Date(`${addDays(TODAY, -1)}T12:00:00+05:30`),
        }),
      );
    }
  }
  await insertInspectionRows(db, visits);
});

afterAll(async () => {
  await database?.close();
});

describe('the schedule SQL', () => {
  it('gives every curve the rule’s states, dates and day counts', async () => {
    const { rows, total } = await listSchedule(db, {}, CONTEXT, { order: 'register' });
    expect(total).toBe(curves.length);
    expect(rows).toHaveLength(curves.length);
    let checked = 0;
    for (const row of rows) {
      const curve = curves.find((c) => c.section === row.section && c.curveNumber === row.curveNumber && c.line === row.line);
      expect(curve, `${row.section} ${row.curveNumber} ${row.line}`).toBeDefined();
      if (!curve) continue;
      const expected = expectedOf(curve);
      expect(serviceOf(row)).toEqual(expected.service);
      expect(cofOf(row)).toEqual(expected.cof);
      expect(row.rolloutMachine).toBe(curve.rollout !== null && rolloutHasMachine(curve.rollout));
      expect(row.serviceUrgency).toBe(urgency(expected.service));
      expect(row.cofUrgency).toBe(urgency(expected.cof));
      expect(row.serviceLastTechnician).toBe(expected.lastService?.technicianName ?? null);
      expect(row.cofLastTechnician).toBe(expected.lastCof?.technicianName ?? null);
      checked += 1;
    }
    expect(checked).toBe(curves.length);
    // The data reaches every state, so the comparison covered each branch.
    const states = new Set(rows.flatMap((r) => [`s:${r.serviceState}`, `c:${r.cofState}`]));
    for (const state of ['s:never', 's:overdue', 's:due-soon', 's:in-time', 's:not-needed', 's:no-machine', 'c:never', 'c:overdue', 'c:due-soon', 'c:in-time', 'c:no-machine']) {
      expect(states).toContain(state);
    }
    expect(rows.some((r) => r.cofHigh)).toBe(true);
    // Both ways a curve gets a machine are there: the rollout record alone, a Service visit alone.
    expect(rows.some((r) => r.rolloutMachine && r.serviceState === 'never')).toBe(true);
    expect(rows.some((r) => !r.rolloutMachine && r.serviceState !== 'no-machine' && r.serviceState !== 'not-needed')).toBe(true);
    // A high last reading on a curve without a machine is not followed up.
    expect(rows.some((r) => r.cofState === 'no-machine' && (r.cofLastValue ?? 0) > THRESHOLD && !r.cofHigh)).toBe(true);
  });

  it('filters by status and kind and orders the most urgent first', async () => {
    const all = (await listSchedule(db, {}, CONTEXT, { order: 'register' })).rows;
    const serviceAttention = all.filter((r) => needsAttention(serviceOf(r)));
    const { rows, total } = await listSchedule(db, {}, CONTEXT, { order: 'urgency', kind: 'Service', status: 'attention', page: { limit: 10, offset: 0 } });
    expect(total).toBe(serviceAttention.length);
    expect(rows).toHaveLength(10);
    const urgencies = rows.map((r) => r.serviceUrgency);
    expect(urgencies).toEqual([...urgencies].sort((a, b) => a - b));
    expect(rows[0]?.serviceDaysOverdue).toBe(Math.max(...all.map((r) => r.serviceDaysOverdue)));

    const high = await listSchedule(db, {}, CONTEXT, { order: 'urgency', status: 'cof-high' });
    expect(high.total).toBe(all.filter((r) => r.cofHigh).length);
    const cofOverdue = await listSchedule(db, { division: 'FZR/NR' }, CONTEXT, { order: 'urgency', kind: 'CoF', status: 'overdue' });
    expect(cofOverdue.total).toBe(all.filter((r) => r.divisionRailway === 'FZR/NR' && r.cofState === 'overdue').length);
    expect(cofOverdue.rows.every((r) => r.divisionRailway === 'FZR/NR' && r.cofState === 'overdue')).toBe(true);
    // "No machine" is a status of its own, last in the order and never needing attention.
    const noMachine = await listSchedule(db, {}, CONTEXT, { order: 'urgency', kind: 'Service', status: 'no-machine' });
    expect(noMachine.total).toBe(all.filter((r) => r.serviceState === 'no-machine').length);
    expect(noMachine.total).toBeGreaterThan(0);
    const everything = await listSchedule(db, {}, CONTEXT, { order: 'urgency', kind: 'Service' });
    expect(everything.rows.slice(-noMachine.total).every((r) => r.serviceState === 'no-machine')).toBe(true);
    expect(rows.some((r) => r.serviceState === 'no-machine')).toBe(false);

    const past = await listSchedule(db, {}, CONTEXT, { order: 'urgency', status: 'attention', page: { limit: 10, offset: 10_000 } });
    expect(past.rows).toEqual([]);
    expect(past.total).toBe(all.filter((r) => needsAttention(serviceOf(r)) || needsAttention(cofOf(r))).length);
  });

  it('counts each section as the rule does, in SQL and from rows read', async () => {
    const all = (await listSchedule(db, {}, CONTEXT, { order: 'register' })).rows;
    const counts = await countScheduleBySection(db, { division: 'RTM/WR' }, CONTEXT);
    // The report counts the rows it read; the summary endpoint asks the database: the same figures.
    expect(sectionCountsOf(all)).toEqual(await countScheduleBySection(db, {}, CONTEXT));
    expect(counts.map((c) => c.section)).toEqual(['SEC-0', 'SEC-2']);
    for (const count of counts) {
      const mine = all.filter((r) => r.divisionRailway === count.divisionRailway && r.section === count.section);
      expect(count.curves).toBe(mine.length);
      expect(count.serviceOverdue).toBe(mine.filter((r) => r.serviceState === 'overdue').length);
      expect(count.serviceNotNeeded).toBe(mine.filter((r) => r.serviceState === 'not-needed').length);
      expect(count.serviceNoMachine).toBe(mine.filter((r) => r.serviceState === 'no-machine').length);
      expect(count.cofNoMachine).toBe(mine.filter((r) => r.cofState === 'no-machine').length);
      expect(count.serviceNever + count.serviceNoMachine).toBeLessThanOrEqual(count.curves);
      expect(count.serviceAttention).toBe(mine.filter((r) => needsAttention(serviceOf(r))).length);
      expect(count.cofHigh).toBe(mine.filter((r) => r.cofHigh).length);
      expect(count.cofAttention).toBe(mine.filter((r) => needsAttention(cofOf(r))).length);
    }
  });
});
