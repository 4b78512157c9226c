/**
 * GET /api/schedule and /api/schedule/summary through the real app: the answers hold the rule
 * of common/rules/schedule.ts at its edges (curves without a machine included), follow writes
 * (inspections and rollout records) and the business date (Asia/Kolkata) past their cache, keep each role to what it may see, refuse bad queries and revalidate with
 * an ETag. (schedule-sql.test.ts holds the SQL itself to the rule on random data.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InspectionType } from '../../../common/constants.js';
import { rolloutHasMachine } from '../../../common/rules/rollout.js';
import { needsAttention, urgency } from '../../../common/rules/schedule.js';
import {
  type ScheduleEntry,
  type ScheduleResponse,
  scheduleResponseSchema,
  type ScheduleSectionSummary,
  scheduleSummaryResponseSchema,
} from '../../../common/schemas/schedule.js';
import { sql } from 'drizzle-orm';
import { consolidatedCurveDetails, curveRecords } from '../../db/schema.js';
import { buildTestApp, type TestApp } from '../../test/build-test-app.js';
import { ADMIN, CLIENT_NO_DIVISION, CLIENT_RTM, TECHNICIAN, createAndSignIn, errorOf } from '../../test/factories.js';
import { insertInspectionRows, inspectionRow } from '../../test/inspections.js';
import { expectedScheduleOf } from '../../test/schedule-expectations.js';
import type { NewInspectionRow } from '../inspections/repository.js';

/** 12:00 in Kolkata on 2026-11-23: the schedule's today. */
const NOW = new Date('2026-11-23T06:30:00Z');
const TODAY = '2026-11-23';
const THRESHOLD = 0.25;

let clock = NOW;
let t: TestApp;
let admin: string;
let technician: string;
let clientRtm: string;
let clientNone: string;

interface TestCurve {
  id: number;
  no: number;
  divisionRailway: string;
  section: string;
  curveNumber: string;
  /** As the register holds it (DN is a code the records spell Down). */
  line: string;
  recordLine: 'Up' | 'Down' | 'Single';
  sse: string | null;
  /** Its rollout record's stage entries (the line spelt as the sheet spells it), or null without one. */
  rollout: { line: string; foundation: string | null; machine: string | null; commissioned: string | null } | null;
}

const curves: TestCurve[] = [];
/** Every inspection row written, so the expectations follow the data whatever ran before. */
const visits: NewInspectionRow[] = [];


const get = (url: string, cookie?: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url, headers: { ...(cookie ? { cookie } : {}), ...headers } });

async function scheduleOf(cookie: string, query = ''): Promise<ScheduleResponse> {
  const response = await get(`/api/schedule${query}`, cookie);
  expect(response.statusCode, response.body).toBe(200);
  return scheduleResponseSchema.parse(response.json());
}

async function summaryOf(cookie: string, query = ''): Promise<ScheduleSectionSummary[]> {
  const response = await get(`/api/schedule/summary${query}`, cookie);
  expect(response.statusCode, response.body).toBe(200);
  const body = scheduleSummaryResponseSchema.parse(response.json());
  expect(body.asOf).toBe(TODAY);
  expect(body.cofAlertThreshold).toBe(THRESHOLD);
  return body.sections;
}

async function record(...rows: NewInspectionRow[]): Promise<void> {
  await insertInspectionRows(t.database.db, rows);
  visits.push(...rows);
}

const keyOf = (c: { section: string; curveNumber: string; line: string }) => `${c.section} ${c.curveNumber} ${c.line}`;

function curve(section: string, curveNumber: string): TestCurve {
  const found = curves.find((c) => c.section === section && c.curveNumber === curveNumber);
  if (!found) throw new Error(`no test curve ${section} ${curveNumber}`);
  return found;
}

function visit(c: TestCurve, type: InspectionType, date: string, overrides: Partial<NewInspectionRow> = {}): NewInspectionRow {
  return inspectionRow({
    type,
    date,
    divisionRailway: c.divisionRailway,
    section: c.section,
    curveNumber: c.curveNumber,
    line: c.recordLine,
    cofValue: type === 'CoF' ? '0.20' : null,
    serviceUpdate: type === 'Service' ? 'working-fine' : null,
    ...overrides,
  });
}

/** What the rule says of a curve today, in the answer's shape. */
function expectedEntry(c: TestCurve, today = TODAY): ScheduleEntry {
  const rolloutMachine = c.rollout !== null && rolloutHasMachine(c.rollout);
  const { service, cof, lastService: s, lastCof: f } = expectedScheduleOf(visits, c, today, THRESHOLD, rolloutMachine);
  return {
    divisionRailway: c.divisionRailway,
    section: c.section,
    curveNumber: c.curveNumber,
    line: c.line,
    hkmCode: null,
    sse: c.sse,
    rolloutMachine,
    service: { ...service, lastTechnician: s?.technicianName ?? null, serviceUpdate: s?.serviceUpdate ?? null },
    cof: { ...cof, lastTechnician: f?.technicianName ?? null },
  };
}

/** The due list's order: most urgent first (of the kind asked, else of either), then register order. */
function urgencyOf(e: ScheduleEntry, kind?: InspectionType): number {
  if (kind === 'Service') return urgency(e.service);
  if (kind === 'CoF') return urgency(e.cof);
  return Math.min(urgency(e.service), urgency(e.cof));
}

function expectedList(filter: (e: ScheduleEntry) => boolean, kind?: InspectionType, among: readonly TestCurve[] = curves): ScheduleEntry[] {
  return among
    .map((c) => ({ c, e: expectedEntry(c) }))
    .filter(({ e }) => filter(e))
    .sort(
      (a, b) =>
        urgencyOf(a.e, kind) - urgencyOf(b.e, kind) ||
        (a.c.divisionRailway < b.c.divisionRailway ? -1 : a.c.divisionRailway > b.c.divisionRailway ? 1 : 0) ||
        (a.c.section < b.c.section ? -1 : a.c.section > b.c.section ? 1 : 0) ||
        a.c.no - b.c.no ||
        a.c.id - b.c.id,
    )
    .map(({ e }) => e);
}

function expectedSummary(among: readonly TestCurve[] = curves): ScheduleSectionSummary[] {
  const bySection = new Map<string, ScheduleSectionSummary>();
  for (const c of [...among].sort((a, b) => (a.divisionRailway + '\u0000' + a.section < b.divisionRailway + '\u0000' + b.section ? -1 : 1))) {
    const key = `${c.divisionRailway}\u0000${c.section}`;
    let s = bySection.get(key);
    if (!s) {
      s = {
        divisionRailway: c.divisionRailway,
        section: c.section,
        curves: 0,
        service: { overdue: 0, dueSoon: 0, never: 0, inTime: 0, notNeeded: 0, noMachine: 0, attention: 0 },
        cof: { overdue: 0, dueSoon: 0, never: 0, inTime: 0, high: 0, noMachine: 0, attention: 0 },
      };
      bySection.set(key, s);
    }
    const e = expectedEntry(c);
    s.curves += 1;
    const count = { overdue: 'overdue', 'due-soon': 'dueSoon', never: 'never', 'in-time': 'inTime', 'not-needed': 'notNeeded', 'no-machine': 'noMachine' } as const;
    s.service[count[e.service.state]] += 1;
    if (e.cof.state === 'not-needed') throw new Error('CoF is never not-needed');
    s.cof[count[e.cof.state]] += 1;
    if (e.cof.high) s.cof.high += 1;
    if (needsAttention(e.service)) s.service.attention += 1;
    if (needsAttention(e.cof)) s.cof.attention += 1;
  }
  return [...bySection.values()];
}

beforeAll(async () => {
  t = await buildTestApp({}, { now: () => clock });
  const db = t.database.db;
  ({ admin, technician, clientRtm, clientNone } = await createAndSignIn(t, {
    admin: ADMIN,
    technician: { ...TECHNICIAN, employeeId: 'TEC7', name: 'Tech Seven' },
    clientRtm: CLIENT_RTM,
    clientNone: CLIENT_NO_DIVISION,
  }));

  const installed = (line: string, machine: string, commissioned = 'Pending') => ({ line, foundation: '01.01.2026', machine, commissioned });
  const register = [
    // 101: no rollout record, but serviced: the visit proves its machine.
    { no: 1, divisionRailway: 'RTM/WR', section: 'RTM-NAD', curveNumber: '101', line: 'Up', recordLine: 'Up', sse: 'SSE/P.Way/NAD', rollout: null },
    { no: 2, divisionRailway: 'RTM/WR', section: 'RTM-NAD', curveNumber: '102', line: 'Up', recordLine: 'Up', sse: null, rollout: installed('Up', '14.03.2026', '20.03.2026') },
    // 103: installed by the rollout sheet (which spells the line Down), never visited: never done.
    { no: 3, divisionRailway: 'RTM/WR', section: 'RTM-NAD', curveNumber: '103', line: 'DN', recordLine: 'Down', sse: 'SSE', rollout: installed('Down', 'Done') },
    { no: 4, divisionRailway: 'RTM/WR', section: 'RTM-NAD', curveNumber: '104', line: 'Up', recordLine: 'Up', sse: null, rollout: installed('Up', '14.03.2026', '20.03.2026') },
    { no: 5, divisionRailway: 'RTM/WR', section: 'RTM-NAD', curveNumber: '105', line: 'Up', recordLine: 'Up', sse: null, rollout: null },
    { no: 6, divisionRailway: 'RTM/WR', section: 'RTM-NAD', curveNumber: '106', line: 'Up', recordLine: 'Up', sse: null, rollout: installed('UP', '14.03.2026') },
    // 107: no rollout record and no visit: no machine. 108: commissioned on the sheet only: a machine, never visited.
    { no: 7, divisionRailway: 'RTM/WR', section: 'RTM-NAD', curveNumber: '107', line: 'Up', recordLine: 'Up', sse: null, rollout: null },
    { no: 8, divisionRailway: 'RTM/WR', section: 'RTM-NAD', curveNumber: '108', line: 'Up', recordLine: 'Up', sse: null, rollout: installed('Up', 'Pending', '02-Apr-2026') },
    { no: 1, divisionRailway: 'RTM/WR', section: 'RTM-VRL', curveNumber: '201', line: 'Up', recordLine: 'Up', sse: null, rollout: null },
    { no: 1, divisionRailway: 'FZR/NR', section: 'FZR-JUC', curveNumber: '301', line: 'Single', recordLine: 'Single', sse: null, rollout: null },
    // 302: only its foundation is laid: no machine, never visited.
    { no: 2, divisionRailway: 'FZR/NR', section: 'FZR-JUC', curveNumber: '302', line: 'Single', recordLine: 'Single', sse: null, rollout: { line: 'SL', foundation: '01.01.2026', machine: 'Pending', commissioned: 'Pending' } },
  ] as const;
  const stored = await db
    .insert(consolidatedCurveDetails)
    .values(register.map(({ recordLine: _line, rollout: _rollout, ...c }) => c))
    .returning();
  for (const c of register) {
    const row = stored.find((s) => s.section === c.section && s.curveNumber === c.curveNumber);
    if (!row) throw new Error('curve not stored');
    curves.push({ ...c, rollout: c.rollout === null ? null : { ...c.rollout }, id: row.id });
  }
  await db.insert(curveRecords).values(
    register.flatMap((c, i) =>
      c.rollout === null
        ? []
        : [
            {
              no: i + 1,
              divisionRailway: c.divisionRailway,
              section: c.section,
              curveNumber: c.curveNumber,
              line: c.rollout.line,
              foundationActual: c.rollout.foundation,
              machineActual: c.rollout.machine,
              commissioned: c.rollout.commissioned,
            },
          ],
    ),
  );
  // 107's section and number on the Down line (not in the register) lends 107 nothing.
  await db.insert(curveRecords).values({ no: 99, divisionRailway: 'RTM/WR', section: 'RTM-NAD', curveNumber: '107', line: 'DN', machineActual: 'Done' });

  const at = (date: string, time: string) => new Date(`${date}T${time}:00+05:30`);
  await record(
    // 101: Service 15 days ago (due today), CoF 30 days ago (due today).
    visit(curve('RTM-NAD', '101'), 'Service', '2026-11-08', { technicianId: 'TEC7', technicianName: 'Tech Seven' }),
    visit(curve('RTM-NAD', '101'), 'CoF', '2026-10-24', { technicianName: 'Anil Kumar' }),
    // 102: Service 16 days ago, CoF 31 days ago (both overdue 1 day); a reading equal to the threshold.
    visit(curve('RTM-NAD', '102'), 'Service', '2026-11-07'),
    visit(curve('RTM-NAD', '102'), 'CoF', '2026-10-23', { cofValue: '0.25' }),
    // 103 (DN in the register): never visited; a visit to 103 on the Up line is another curve.
    visit({ ...curve('RTM-NAD', '103'), recordLine: 'Up' }, 'Service', '2026-11-22'),
    // 104: the machine uninstalled; a CoF reading just above the threshold.
    visit(curve('RTM-NAD', '104'), 'Service', '2026-11-03', { serviceUpdate: 'uninstall' }),
    visit(curve('RTM-NAD', '104'), 'CoF', '2026-11-20', { cofValue: '0.26' }),
    // 105: uninstalled, then serviced again: back on the schedule. Two CoF readings on one day: the later upload counts.
    visit(curve('RTM-NAD', '105'), 'Service', '2026-09-20'),
    visit(curve('RTM-NAD', '105'), 'Service', '2026-10-01', { serviceUpdate: 'uninstall' }),
    visit(curve('RTM-NAD', '105'), 'Service', '2026-11-18', { technicianName: 'Back Again' }),
    visit(curve('RTM-NAD', '105'), 'CoF', '2026-11-21', { cofValue: '0.30', submittedAt: at('2026-11-21', '09:00') }),
    visit(curve('RTM-NAD', '105'), 'CoF', '2026-11-21', { cofValue: '0.22', submittedAt: at('2026-11-21', '15:00') }),
    // 106: Service due in 2 days, CoF in time.
    visit(curve('RTM-NAD', '106'), 'Service', '2026-11-10'),
    visit(curve('RTM-NAD', '106'), 'CoF', '2026-11-01'),
    // 201: Service overdue 10 days; the technician's most recent section.
    visit(curve('RTM-VRL', '201'), 'Service', '2026-10-29'),
    visit(curve('RTM-VRL', '201'), 'CoF', '2026-11-15', { technicianId: 'TEC7', technicianName: 'Tech Seven' }),
    // 301: Service overdue 7 days; CoF overdue and high (the technician's, 39 days ago: too old for recent sections).
    visit(curve('FZR-JUC', '301'), 'Service', '2026-11-01', { technicianId: 'TEC8' }),
    visit(curve('FZR-JUC', '301'), 'CoF', '2026-10-15', { cofValue: '0.40', technicianId: 'TEC7', technicianName: 'Tech Seven' }),
    // 302, 107, 108: never visited.
  );
});
afterAll(() => t.close());

describe('GET /api/schedule', () => {
  it('gives every curve the rule’s states, dates and day counts, the most urgent first', async () => {
    const body = await scheduleOf(admin, '?limit=1000');
    expect(body.asOf).toBe(TODAY);
    expect(body.timeZone).toBe('Asia/Kolkata');
    expect(body.cofAlertThreshold).toBe(THRESHOLD);
    expect(body.total).toBe(curves.length);
    expect(body.recentSections).toEqual([]);
    expect(body.curves).toEqual(expectedList(() => true));

    // The data reaches the edges it is meant to (the rule is the oracle; this checks the fixture).
    const of = (section: string, n: string) => body.curves.find((e) => e.section === section && e.curveNumber === n);
    expect(of('RTM-NAD', '101')?.service).toMatchObject({ state: 'due-soon', daysUntilDue: 0, dueDate: TODAY, daysSince: 15, lastTechnician: 'Tech Seven' });
    expect(of('RTM-NAD', '101')?.cof).toMatchObject({ state: 'due-soon', daysUntilDue: 0, dueDate: TODAY, daysSince: 30 });
    expect(of('RTM-NAD', '102')?.service).toMatchObject({ state: 'overdue', daysOverdue: 1, dueDate: '2026-11-22' });
    expect(of('RTM-NAD', '102')?.cof).toMatchObject({ state: 'overdue', daysOverdue: 1, lastValue: 0.25, high: false });
    expect(of('RTM-NAD', '103')).toMatchObject({ line: 'DN', rolloutMachine: true, service: { state: 'never', lastDate: null }, cof: { state: 'never' } });
    // Uninstalled: off both schedules though the rollout sheet says commissioned; its high reading is not followed up.
    expect(of('RTM-NAD', '104')).toMatchObject({ rolloutMachine: true, service: { state: 'not-needed', dueDate: null, serviceUpdate: 'uninstall' } });
    expect(of('RTM-NAD', '104')?.cof).toMatchObject({ state: 'no-machine', lastValue: 0.26, high: false, dueDate: null });
    // Visits prove a machine without a rollout record; none and no record: "No machine".
    expect(of('RTM-NAD', '101')?.rolloutMachine).toBe(false);
    expect(of('RTM-NAD', '107')).toMatchObject({ rolloutMachine: false, service: { state: 'no-machine', lastDate: null }, cof: { state: 'no-machine' } });
    expect(of('RTM-NAD', '108')).toMatchObject({ rolloutMachine: true, service: { state: 'never' }, cof: { state: 'never' } });
    expect(of('FZR-JUC', '302')).toMatchObject({ rolloutMachine: false, service: { state: 'no-machine' }, cof: { state: 'no-machine' } });
    // Curves without a machine come last.
    expect(body.curves.slice(-3).map((e) => e.curveNumber).sort()).toEqual(['104', '107', '302']);
    expect(of('RTM-NAD', '105')?.service).toMatchObject({ state: 'in-time', lastDate: '2026-11-18', daysUntilDue: 10, lastTechnician: 'Back Again' });
    expect(of('RTM-NAD', '105')?.cof).toMatchObject({ lastValue: 0.22, high: false });
    expect(of('RTM-NAD', '106')?.service).toMatchObject({ state: 'due-soon', daysUntilDue: 2 });
    // The most overdue first: 201's Service (10 days) before 301's CoF (9 days).
    expect(body.curves.slice(0, 2).map((e) => e.curveNumber)).toEqual(['201', '301']);
  });

  it('filters by status and kind, and pages with the total of all that match', async () => {
    const cases: Array<{ query: string; filter: (e: ScheduleEntry) => boolean; kind?: InspectionType }> = [
      { query: 'status=attention&kind=Service', filter: (e) => needsAttention(e.service), kind: 'Service' },
      { query: 'status=attention&kind=CoF', filter: (e) => needsAttention(e.cof), kind: 'CoF' },
      { query: 'status=attention', filter: (e) => needsAttention(e.service) || needsAttention(e.cof) },
      { query: 'status=cof-high', filter: (e) => e.cof.high },
      { query: 'status=overdue&kind=CoF', filter: (e) => e.cof.state === 'overdue', kind: 'CoF' },
      { query: 'status=not-needed&kind=Service', filter: (e) => e.service.state === 'not-needed', kind: 'Service' },
      { query: 'status=never', filter: (e) => e.service.state === 'never' || e.cof.state === 'never' },
      { query: 'status=no-machine&kind=Service', filter: (e) => e.service.state === 'no-machine', kind: 'Service' },
      { query: 'status=no-machine', filter: (e) => e.service.state === 'no-machine' || e.cof.state === 'no-machine' },
      { query: 'status=in-time&kind=Service&division=RTM/WR&section=RTM-NAD', filter: (e) => e.service.state === 'in-time' && e.section === 'RTM-NAD', kind: 'Service' },
    ];
    for (const c of cases) {
      const expected = expectedList(c.filter, c.kind);
      expect(expected.length, c.query).toBeGreaterThan(0);
      const body = await scheduleOf(admin, `?${c.query}`);
      expect(body.total, c.query).toBe(expected.length);
      expect(body.curves, c.query).toEqual(expected);
    }
    const all = expectedList(() => true);
    const page = await scheduleOf(admin, '?limit=3&offset=2');
    expect(page.total).toBe(all.length);
    expect(page.curves).toEqual(all.slice(2, 5));
    const past = await scheduleOf(admin, '?offset=500');
    expect(past).toMatchObject({ total: all.length, curves: [] });
  });

  it('follows a new Service record past its cache: the curve leaves the attention list', async () => {
    const query = '?status=attention&kind=Service&limit=1000';
    const before = await scheduleOf(admin, query);
    expect(before.curves.map(keyOf)).toContain('RTM-NAD 102 Up');
    const again = await scheduleOf(admin, query);
    expect(again).toEqual(before);

    await record(visit(curve('RTM-NAD', '102'), 'Service', TODAY, { technicianName: 'Fresh Visit', submittedAt: new Date(NOW) }));
    const after = await scheduleOf(admin, query);
    expect(after.total).toBe(before.total - 1);
    expect(after.curves.map(keyOf)).not.toContain('RTM-NAD 102 Up');
    expect(after.curves).toEqual(expectedList((e) => needsAttention(e.service), 'Service'));
    const full = await scheduleOf(admin, '?section=RTM-NAD&limit=1000');
    expect(full.curves.find((e) => e.curveNumber === '102')?.service).toMatchObject({
      state: 'in-time',
      lastDate: TODAY,
      daysSince: 0,
      daysUntilDue: 15,
      lastTechnician: 'Fresh Visit',
    });
  });

  it('takes today from the clock in Asia/Kolkata, not UTC', async () => {
    const query = '?section=RTM-NAD&limit=1000';
    const c101 = curve('RTM-NAD', '101');
    try {
      // 23:59 in Kolkata on the 23rd: the Service of 2026-11-08 is due today.
      clock = new Date('2026-11-23T18:29:00Z');
      const evening = await scheduleOf(admin, query);
      expect(evening.asOf).toBe('2026-11-23');
      expect(evening.curves.find((e) => e.curveNumber === '101')?.service).toMatchObject({ state: 'due-soon', daysUntilDue: 0, daysOverdue: 0 });

      // 00:30 in Kolkata on the 24th (still the 23rd in UTC): overdue by one day.
      clock = new Date('2026-11-23T19:00:00Z');
      expect(clock.toISOString().slice(0, 10)).toBe('2026-11-23');
      const night = await scheduleOf(admin, query);
      expect(night.asOf).toBe('2026-11-24');
      const entry = night.curves.find((e) => e.curveNumber === '101');
      expect(entry?.service).toMatchObject({ state: 'overdue', daysOverdue: 1, dueDate: '2026-11-23', daysSince: 16, daysUntilDue: null });
      expect(entry).toEqual(expectedEntry(c101, '2026-11-24'));
      // The whole answer is the rule's for the 24th.
      expect(new Set(night.curves.map(keyOf))).toEqual(new Set(curves.filter((c) => c.section === 'RTM-NAD').map(keyOf)));
      for (const e of night.curves) expect(e).toEqual(expectedEntry(curve(e.section, e.curveNumber), '2026-11-24'));
    } finally {
      clock = NOW;
    }
    expect((await scheduleOf(admin, query)).asOf).toBe(TODAY);
  });

  it('holds a Client to their division whatever they ask', async () => {
    const rtm = curves.filter((c) => c.divisionRailway === 'RTM/WR');
    for (const query of ['?division=FZR/NR&limit=1000', '?limit=1000', '?division=all&limit=1000']) {
      const body = await scheduleOf(clientRtm, query);
      expect(body.total, query).toBe(rtm.length);
      expect(body.curves, query).toEqual(expectedList(() => true, undefined, rtm));
      expect(body.recentSections).toEqual([]);
    }
    // A section of another division is simply not theirs: nothing.
    const foreign = await scheduleOf(clientRtm, '?division=FZR/NR&section=FZR-JUC');
    expect(foreign).toMatchObject({ total: 0, curves: [] });

    const none = await scheduleOf(clientNone, '?division=RTM/WR');
    expect(none).toMatchObject({ total: 0, curves: [], recentSections: [] });
    for (const query of ['', '?division=FZR/NR', '?status=attention']) {
      expect((await scheduleOf(clientNone, query)).curves, query).toEqual([]);
    }
  });

  it('gives a Technician the whole list and their recent sections, most recent first', async () => {
    const body = await scheduleOf(technician, '?limit=1000');
    expect(body.total).toBe(curves.length);
    expect(body.curves).toEqual(expectedList(() => true));
    // TEC7: RTM-VRL on 11-15, RTM-NAD on 11-08; FZR-JUC on 10-15 is older than 30 days.
    expect(body.recentSections).toEqual(['RTM-VRL', 'RTM-NAD']);
    // The filters do not narrow what the technician's recent sections are.
    expect((await scheduleOf(technician, '?division=FZR/NR')).recentSections).toEqual(['RTM-VRL', 'RTM-NAD']);
  });

  it('refuses a bad query with a 400 naming the field', async () => {
    const cases = [
      ['status=bogus', 'status'],
      ['limit=0', 'limit'],
      ['limit=1001', 'limit'],
      ['limit=ten', 'limit'],
      ['offset=-1', 'offset'],
      ['kind=Grease', 'kind'],
    ] as const;
    for (const [query, field] of cases) {
      const response = await get(`/api/schedule?${query}`, admin);
      expect(response.statusCode, query).toBe(400);
      const error = errorOf(response);
      expect(error.code, query).toBe('VALIDATION_FAILED');
      expect(Object.keys(error.fields ?? {}), query).toEqual([field]);
      expect(error.message, query).toContain(field);
    }
    expect((await get('/api/schedule?limit=1000', admin)).statusCode).toBe(200);
    expect((await get('/api/schedule?limit=1', admin)).statusCode).toBe(200);
  });

  it('answers 401 to an anonymous caller', async () => {
    expect((await get('/api/schedule')).statusCode).toBe(401);
    expect((await get('/api/schedule/summary')).statusCode).toBe(401);
  });

  it('revalidates with its ETag: 304 while unchanged, a new answer after a write', async () => {
    const first = await get('/api/schedule?kind=CoF&limit=1000', admin);
    expect(first.statusCode).toBe(200);
    const etag = first.headers.etag;
    expect(typeof etag).toBe('string');
    if (typeof etag !== 'string') return;

    const unchanged = await get('/api/schedule?kind=CoF&limit=1000', admin, { 'if-none-match': etag });
    expect(unchanged.statusCode).toBe(304);
    expect(unchanged.body).toBe('');
    // Another filter is another answer.
    expect((await get('/api/schedule?kind=Service&limit=1000', admin, { 'if-none-match': etag })).statusCode).toBe(200);

    await record(visit(curve('FZR-JUC', '302'), 'CoF', TODAY, { cofValue: '0.19', submittedAt: new Date(NOW) }));
    const changed = await get('/api/schedule?kind=CoF&limit=1000', admin, { 'if-none-match': etag });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    const body = scheduleResponseSchema.parse(changed.json());
    // 302 has no machine: the reading is kept, nothing falls due.
    expect(body.curves.find((e) => e.curveNumber === '302')?.cof).toMatchObject({ state: 'no-machine', lastDate: TODAY, lastValue: 0.19, dueDate: null });
  });

  it('follows a rollout record past its cache: a machine installed puts the curve on the schedule as never done', async () => {
    const query = '?section=RTM-NAD&limit=1000';
    const before = await scheduleOf(admin, query);
    expect(before.curves.find((e) => e.curveNumber === '107')?.service.state).toBe('no-machine');
    const c107 = curve('RTM-NAD', '107');
    try {
      await t.database.db.insert(curveRecords).values({ no: 107, divisionRailway: 'RTM/WR', section: 'RTM-NAD', curveNumber: '107', line: 'Up', machineActual: '20.11.2026' });
      c107.rollout = { line: 'Up', foundation: null, machine: '20.11.2026', commissioned: null };
      const after = await scheduleOf(admin, query);
      expect(after.curves.find((e) => e.curveNumber === '107')).toMatchObject({ rolloutMachine: true, service: { state: 'never' }, cof: { state: 'never' } });
      expect(after.curves).toEqual(expectedList((e) => e.section === 'RTM-NAD'));
      expect((await summaryOf(admin, '?section=RTM-NAD'))[0]?.service).toMatchObject({ noMachine: 0 });
    } finally {
      await t.database.db.execute(sql`delete from curve_records where no = 107`);
      c107.rollout = null;
    }
    expect((await scheduleOf(admin, query)).curves.find((e) => e.curveNumber === '107')?.service.state).toBe('no-machine');
  });
});

describe('GET /api/schedule/summary', () => {
  it('counts each section’s states as the rule does', async () => {
    const sections = await summaryOf(admin);
    expect(sections).toEqual(expectedSummary());
    // The fixture reaches every count.
    const total = (pick: (s: ScheduleSectionSummary) => number) => sections.reduce((n, s) => n + pick(s), 0);
    for (const pick of [
      (s: ScheduleSectionSummary) => s.service.overdue,
      (s: ScheduleSectionSummary) => s.service.dueSoon,
      (s: ScheduleSectionSummary) => s.service.never,
      (s: ScheduleSectionSummary) => s.service.inTime,
      (s: ScheduleSectionSummary) => s.service.notNeeded,
      (s: ScheduleSectionSummary) => s.service.noMachine,
      (s: ScheduleSectionSummary) => s.cof.noMachine,
      (s: ScheduleSectionSummary) => s.cof.overdue,
      (s: ScheduleSectionSummary) => s.cof.dueSoon,
      (s: ScheduleSectionSummary) => s.cof.never,
      (s: ScheduleSectionSummary) => s.cof.inTime,
      (s: ScheduleSectionSummary) => s.cof.high,
    ]) {
      expect(total(pick)).toBeGreaterThan(0);
    }
    // Its attention counts are the due list's totals.
    expect(total((s) => s.service.attention)).toBe((await scheduleOf(admin, '?status=attention&kind=Service')).total);
    expect(total((s) => s.cof.attention)).toBe((await scheduleOf(admin, '?status=attention&kind=CoF')).total);

    expect(await summaryOf(admin, '?division=RTM/WR&section=RTM-VRL')).toEqual(expectedSummary(curves.filter((c) => c.section === 'RTM-VRL')));
    expect(await summaryOf(admin, '?division=FZR/NR')).toEqual(expectedSummary(curves.filter((c) => c.divisionRailway === 'FZR/NR')));
  });

  it('holds a Client to their division, gives nothing without one, and refuses a Technician', async () => {
    const rtm = expectedSummary(curves.filter((c) => c.divisionRailway === 'RTM/WR'));
    expect(rtm.length).toBe(2);
    expect(await summaryOf(clientRtm, '?division=FZR/NR')).toEqual(rtm);
    expect(await summaryOf(clientRtm)).toEqual(rtm);
    expect(await summaryOf(clientNone)).toEqual([]);
    expect(await summaryOf(clientNone, '?division=RTM/WR')).toEqual([]);

    const refused = await get('/api/schedule/summary', technician);
    expect(refused.statusCode).toBe(403);
    expect(errorOf(refused).code).toBe('FORBIDDEN');
  });
});
