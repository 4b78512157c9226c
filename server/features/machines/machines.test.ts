/**
 * Machine rollout (issue 13): the machine dashboard's filters and totals counted from the
 * per-curve rollout records (curve_records) by the rollout rule (common/rules/rollout.ts), the
 * reports landing's progress cards, and the owner's per-division figures with their audit
 * trail. The figures are cached per instance and must follow every write to curve_records at
 * once, including rows written straight with SQL.
 */
import os from 'node:os';
import path from 'node:path';
import { count, sql } from 'drizzle-orm';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIVISIONS } from '../../../common/constants.js';
import { stageEntry } from '../../../common/rules/rollout.js';
import { auditListResponseSchema, type AuditEntry } from '../../../common/schemas/audit.js';
import {
  type LastProgress,
  type MachineFiltersResponse,
  machineFiltersResponseSchema,
  type MachineProgressResponse,
  machineProgressResponseSchema,
  type MachineStatsResponse,
  machineStatsResponseSchema,
  type MachineSummary,
  machineSummariesResponseSchema,
  machineSummarySchema,
  type MachineTotals,
} from '../../../common/schemas/machines.js';
import { buildApp } from '../../app.js';
import { auditLog, curveRecords, machineDashboardSummary } from '../../db/schema.js';
import { buildTestApp, TEST_CONFIG, type TestApp } from '../../test/build-test-app.js';
import { ADMIN, CLIENT_FZR, CLIENT_NO_DIVISION, CLIENT_RTM, TECHNICIAN, createAndSignIn, errorOf } from '../../test/factories.js';

/** The owner of TEST_CONFIG, and a Client whose employee ID is (wrongly) configured as an owner too. */
const OWNER_ID = 'OWN0001';
const CLIENT_OWNER_ID = 'CLIOWN1';
const CONFIG = { ownerEmployeeIds: [OWNER_ID, CLIENT_OWNER_ID] };

let t: TestApp;
let admin: string;
let owner: string;
let technician: string;
let clientRtm: string;
let clientFzr: string;
let clientNone: string;
let clientOwner: string;

interface Curve {
  no: number;
  division: string;
  section: string;
  curveNumber: string;
  line: string;
  den: string | null;
  aen: string | null;
  foundation: string | null;
  machine: string | null;
  commissioned: string | null;
}

type Row = [division: string, section: string, den: string | null, aen: string | null, foundation: string | null, machine: string | null, commissioned: string | null];

/**
 * The fixture, numbered as in the comments of the literal figures below. Every kind of entry:
 * dates in each format, done words in any case, 'Pending', blank, null, impossible dates, other
 * text; DENs and AENs padded with spaces, blank and missing; an AEN under two DENs and a DEN in
 * two divisions.
 */
const FIXTURE: Row[] = [
  /* 1 */ ['RTM/WR', 'RTM-NAD', 'Sr.DEN/RTM', 'AEN/NAD', '14.03.2025', '02-04-2025', '2025-04-20'],
  /* 2 */ ['RTM/WR', 'RTM-NAD', 'Sr.DEN/RTM', 'AEN/NAD', '05/01/2025', 'Done', 'Pending'],
  /* 3 */ ['RTM/WR', 'RTM-NAD', ' Sr.DEN/RTM ', 'AEN/NAD ', '31.02.2025', 'Pending', ''],
  /* 4 */ ['RTM/WR', 'RTM-VRL', 'Sr.DEN/RTM', 'AEN/RTM', '20-Mar-2025', 'completed', null],
  /* 5 */ ['RTM/WR', 'RTM-VRL', 'Sr.DEN/RTM', null, 'YES', ' 10.05.2025 ', 'Complete'],
  /* 6 */ ['RTM/WR', 'RTM-VRL', 'Sr.DEN/RTM', '   ', 'Pending', null, null],
  /* 7 */ ['RTM/WR', 'RTM-VRL', 'Sr.DEN/RTM', 'AEN/COMMON', '2025-02-29', '29.02.2024', 'done'],
  /* 8 */ ['RTM/WR', 'RTM-NAD', null, null, '01.01.2025', null, null],
  /* 9 */ ['RTM/WR', 'RTM-NAD', 'DEN/SHARED', 'AEN/S1', '15-06-2025', '16-06-2025', '17-06-2025'],
  /* 10 */ ['FZR/NR', 'FZR-JUC', 'DEN/FZR', 'AEN/FZR', '1-Apr-2025', '2-Apr-2025', '3-Apr-2025'],
  /* 11 */ ['FZR/NR', 'FZR-JUC', 'DEN/FZR', 'AEN/FZR', 'Done', 'Pending', 'Pending'],
  /* 12 */ ['FZR/NR', 'FZR-JUC', 'DEN/FZR', 'AEN/JUC', '32.01.2025', 'N/A', 'Yes'],
  /* 13 */ ['FZR/NR', 'FZR-JUC', 'DEN/FZR', 'AEN/COMMON', '2025-07-01', '', 'In progress'],
  /* 14 */ ['BRC/WR', 'BRC-GDA', 'DEN/BRC', 'AEN/BRC', 'done', 'DONE', 'Done'],
  /* 15 */ ['BRC/WR', 'BRC-GDA', '', 'AEN/X', 'Pending', 'Pending', 'Pending'],
  /* 16 */ ['BRC/WR', 'BRC-GDA', 'DEN/SHARED', 'AEN/S2', '10.10.2025', 'Pending', 'Pending'],
];

/** What is in curve_records now, as the test wrote it. */
let curves: Curve[] = FIXTURE.map(([division, section, den, aen, foundation, machine, commissioned], i) => ({
  no: i + 1,
  division,
  section,
  curveNumber: String(100 + i),
  line: 'UP',
  den,
  aen,
  foundation,
  machine,
  commissioned,
}));

// ---------------------------------------------------------------------------------------------
// The expected figures, worked out here from the rows with the rollout rule as the oracle.

const nameOf = (value: string | null) => value?.trim() || null;

interface Where {
  division?: string | undefined;
  den?: string | undefined;
  aen?: string | undefined;
}

const matches = (c: Curve, where: Where) =>
  (where.division === undefined || c.division === where.division) &&
  (where.den === undefined || nameOf(c.den) === where.den) &&
  (where.aen === undefined || nameOf(c.aen) === where.aen);

const latest = (dates: (string | null)[]) => dates.filter((d): d is string => d !== null).sort().at(-1) ?? null;

function figuresOf(picked: readonly Curve[]): { totals: MachineTotals; lastProgress: LastProgress } {
  const f = picked.map((c) => stageEntry(c.foundation));
  const m = picked.map((c) => stageEntry(c.machine));
  const k = picked.map((c) => stageEntry(c.commissioned));
  return {
    totals: {
      scope: picked.length,
      curveCount: picked.length,
      foundationCompleted: f.filter((s) => s.done).length,
      machinesInstalled: m.filter((s) => s.done).length,
      machinesCommissioned: k.filter((s) => s.done).length,
    },
    lastProgress: { foundation: latest(f.map((s) => s.on)), installed: latest(m.map((s) => s.on)), commissioned: latest(k.map((s) => s.on)) },
  };
}

const expectedOf = (where: Where) => figuresOf(curves.filter((c) => matches(c, where)));

/** The breakdown rows: one per DEN without a DEN, one per AEN under a chosen DEN. */
function expectedBreakdown(where: Where): MachineStatsResponse['breakdown'] {
  const picked = curves.filter((c) => matches(c, where));
  const level = where.den === undefined ? 'DEN' : 'AEN';
  const names = [...new Set(picked.map((c) => nameOf(level === 'DEN' ? c.den : c.aen)))];
  return {
    level,
    rows: names.map((name) => ({
      name,
      den: level === 'DEN' ? name : (where.den ?? null),
      ...figuresOf(picked.filter((c) => nameOf(level === 'DEN' ? c.den : c.aen) === name)),
    })),
  };
}

const distinct = (values: (string | null)[]) => [...new Set(values.filter((v): v is string => v !== null))].sort();

function expectedFilters(division: string | undefined, den?: string): MachineFiltersResponse {
  const visible = curves.filter((c) => division === undefined || c.division === division);
  return {
    dens: distinct(visible.map((c) => nameOf(c.den))),
    aens: distinct(visible.filter((c) => den === undefined || nameOf(c.den) === den).map((c) => nameOf(c.aen))),
  };
}

const ZERO: MachineTotals = { scope: 0, curveCount: 0, foundationCompleted: 0, machinesInstalled: 0, machinesCommissioned: 0 };
const NO_PROGRESS: LastProgress = { foundation: null, installed: null, commissioned: null };

// ---------------------------------------------------------------------------------------------
// Calls.

const get = (url: string, cookie?: string, app: FastifyInstance = t.app) => app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });

const query = (params: Record<string, string | undefined>) => {
  const defined = Object.entries(params).filter((e): e is [string, string] => e[1] !== undefined);
  return defined.length === 0 ? '' : `?${new URLSearchParams(defined).toString()}`;
};

function ok(response: LightMyRequestResponse) {
  expect(response.statusCode, response.body).toBe(200);
  expect(response.headers['cache-control']).toBe('no-store');
  return response.json() as unknown;
}

async function filtersOf(cookie: string, den?: string, app?: FastifyInstance): Promise<MachineFiltersResponse> {
  return machineFiltersResponseSchema.parse(ok(await get(`/api/machine-filters${query({ den })}`, cookie, app)));
}

async function statsOf(cookie: string, where: { den?: string; aen?: string } = {}, app?: FastifyInstance): Promise<MachineStatsResponse> {
  return machineStatsResponseSchema.parse(ok(await get(`/api/machine-stats${query(where)}`, cookie, app)));
}

async function progressOf(cookie: string, division?: string): Promise<MachineProgressResponse> {
  return machineProgressResponseSchema.parse(ok(await get(`/api/machine-progress${query({ division })}`, cookie)));
}

const sortRows = (rows: MachineStatsResponse['breakdown']['rows']) => [...rows].sort((a, b) => JSON.stringify(a.name).localeCompare(JSON.stringify(b.name)));

/** The stats a user gets for a filter are the oracle's for the curves they may see. */
async function expectStats(cookie: string, division: string | undefined, where: { den?: string; aen?: string }) {
  const label = `${division ?? 'every division'} ${JSON.stringify(where)}`;
  const stats = await statsOf(cookie, where);
  const expected = expectedOf({ division, ...where });
  expect(stats.totals, label).toEqual(expected.totals);
  expect(stats.lastProgress, label).toEqual(expected.lastProgress);
  const breakdown = expectedBreakdown({ division, ...where });
  expect(stats.breakdown.level, label).toBe(breakdown.level);
  expect(sortRows(stats.breakdown.rows), label).toEqual(sortRows(breakdown.rows));
  // The table beneath adds up to the totals above it.
  const summed = { ...ZERO };
  for (const row of stats.breakdown.rows) for (const key of Object.keys(summed) as (keyof MachineTotals)[]) summed[key] += row.totals[key];
  expect(summed, label).toEqual(stats.totals);
  expect(latest(stats.breakdown.rows.map((r) => r.lastProgress.foundation)), label).toBe(stats.lastProgress.foundation);
  expect(latest(stats.breakdown.rows.map((r) => r.lastProgress.installed)), label).toBe(stats.lastProgress.installed);
  expect(latest(stats.breakdown.rows.map((r) => r.lastProgress.commissioned)), label).toBe(stats.lastProgress.commissioned);
  // One row per name; unnamed last.
  const names = stats.breakdown.rows.map((r) => r.name);
  expect(new Set(names).size, label).toBe(names.length);
  if (names.includes(null)) expect(names.at(-1), label).toBeNull();
  return stats;
}

/** Every DEN and every (DEN, AEN) pair the filters offer a user, and no filter, each as the oracle says. */
async function expectEveryFilter(cookie: string, division: string | undefined): Promise<number> {
  let checked = 0;
  await expectStats(cookie, division, {});
  const all = await filtersOf(cookie);
  expect(all).toEqual(expectedFilters(division));
  for (const den of all.dens) {
    await expectStats(cookie, division, { den });
    checked += 1;
    const under = await filtersOf(cookie, den);
    expect(under, den).toEqual(expectedFilters(division, den));
    for (const aen of under.aens) {
      await expectStats(cookie, division, { den, aen });
      checked += 1;
    }
  }
  for (const aen of all.aens) await expectStats(cookie, division, { aen });
  return checked;
}

async function summaryRowCount(): Promise<number> {
  const [row] = await t.database.db.select({ n: count() }).from(machineDashboardSummary);
  return row?.n ?? 0;
}

async function auditCount(): Promise<number> {
  const [row] = await t.database.db.select({ n: count() }).from(auditLog);
  return row?.n ?? 0;
}

async function auditEntries(): Promise<AuditEntry[]> {
  const response = await get('/api/audit?limit=500', admin);
  expect(response.statusCode).toBe(200);
  return auditListResponseSchema.parse(response.json()).entries.filter((e) => e.entity === 'machine_dashboard_summary');
}

const put = (cookie: string | undefined, payload: unknown) =>
  t.app.inject({ method: 'PUT', url: '/api/machine-dashboard-summary', headers: cookie ? { cookie } : {}, payload: payload as object });

async function putOk(payload: object): Promise<MachineSummary> {
  const response = await put(owner, payload);
  expect(response.statusCode, response.body).toBe(200);
  return machineSummarySchema.parse(response.json());
}

async function insertCurves(rows: readonly Curve[]) {
  await t.database.db.insert(curveRecords).values(
    rows.map((c) => ({
      no: c.no,
      divisionRailway: c.division,
      section: c.section,
      curveNumber: c.curveNumber,
      line: c.line,
      den: c.den,
      aen: c.aen,
      foundationActual: c.foundation,
      machineActual: c.machine,
      commissioned: c.commissioned,
    })),
  );
}

beforeAll(async () => {
  t = await buildTestApp(CONFIG);
  ({ admin, owner, technician, clientRtm, clientFzr, clientNone, clientOwner } = await createAndSignIn(t, {
    admin: ADMIN,
    owner: { ...ADMIN, employeeId: OWNER_ID, name: 'Owner' },
    technician: TECHNICIAN,
    clientRtm: CLIENT_RTM,
    clientFzr: CLIENT_FZR,
    clientNone: CLIENT_NO_DIVISION,
    clientOwner: { ...CLIENT_RTM, employeeId: CLIENT_OWNER_ID },
  }));
  await insertCurves(curves);
});
afterAll(() => t.close());

describe('the fixture', () => {
  it('has the hand-counted figures the oracle gives (so a wrong rule cannot pass unnoticed)', () => {
    expect(expectedOf({}).totals).toEqual({ scope: 16, curveCount: 16, foundationCompleted: 11, machinesInstalled: 8, machinesCommissioned: 7 });
  });
});

describe('GET /api/machine-filters', () => {
  it("lists every DEN an Admin may see, trimmed, without blanks, and each DEN's AENs", async () => {
    const all = await filtersOf(admin);
    expect([...all.dens].sort()).toEqual(['DEN/BRC', 'DEN/FZR', 'DEN/SHARED', 'Sr.DEN/RTM']);
    expect([...all.aens].sort()).toEqual(['AEN/BRC', 'AEN/COMMON', 'AEN/FZR', 'AEN/JUC', 'AEN/NAD', 'AEN/RTM', 'AEN/S1', 'AEN/S2', 'AEN/X']);
    const rtm = await filtersOf(admin, 'Sr.DEN/RTM');
    expect(rtm.dens).toEqual(all.dens);
    expect([...rtm.aens].sort()).toEqual(['AEN/COMMON', 'AEN/NAD', 'AEN/RTM']);
    expect([...(await filtersOf(admin, 'DEN/FZR')).aens].sort()).toEqual(['AEN/COMMON', 'AEN/FZR', 'AEN/JUC']);
    expect([...(await filtersOf(admin, 'DEN/SHARED')).aens].sort()).toEqual(['AEN/S1', 'AEN/S2']);
    expect((await filtersOf(admin, 'DEN/NOWHERE')).aens).toEqual([]);
  });

  it("reads '', 'all' and a padded DEN as the view's selects mean them", async () => {
    const all = await filtersOf(admin);
    expect(await filtersOf(admin, '')).toEqual(all);
    expect(await filtersOf(admin, 'all')).toEqual(all);
    expect(await filtersOf(admin, '  Sr.DEN/RTM  ')).toEqual(await filtersOf(admin, 'Sr.DEN/RTM'));
  });

  it("gives a Client their division's DENs and AENs only, whatever DEN they ask", async () => {
    const mine = await filtersOf(clientRtm);
    expect([...mine.dens].sort()).toEqual(['DEN/SHARED', 'Sr.DEN/RTM']);
    expect([...mine.aens].sort()).toEqual(['AEN/COMMON', 'AEN/NAD', 'AEN/RTM', 'AEN/S1']);
    // Another division's DEN has no AENs for them; a shared DEN only their division's.
    expect(await filtersOf(clientRtm, 'DEN/FZR')).toEqual({ dens: mine.dens, aens: [] });
    expect((await filtersOf(clientRtm, 'DEN/SHARED')).aens).toEqual(['AEN/S1']);
    expect((await filtersOf(clientFzr)).dens).toEqual(['DEN/FZR']);
    expect(await filtersOf(clientNone)).toEqual({ dens: [], aens: [] });
    expect(await filtersOf(clientNone, 'Sr.DEN/RTM')).toEqual({ dens: [], aens: [] });
  });

  it('refuses a DEN longer than 100 characters (400 naming den)', async () => {
    const response = await get(`/api/machine-filters${query({ den: 'D'.repeat(101) })}`, admin);
    expect(response.statusCode).toBe(400);
    expect(errorOf(response).fields).toHaveProperty('den');
  });
});

describe('GET /api/machine-stats', () => {
  it('counts the totals of every curve record by the rollout rule', async () => {
    const stats = await expectStats(admin, undefined, {});
    expect(stats.totals).toEqual({ scope: 16, curveCount: 16, foundationCompleted: 11, machinesInstalled: 8, machinesCommissioned: 7 });
    expect(stats.lastProgress).toEqual({ foundation: '2025-10-10', installed: '2025-06-16', commissioned: '2025-06-17' });
    expect(stats.breakdown.level).toBe('DEN');
    expect(stats.breakdown.rows.map((r) => r.name).sort()).toEqual([null, 'DEN/BRC', 'DEN/FZR', 'DEN/SHARED', 'Sr.DEN/RTM'].sort());
    // Curves 8 and 15 name no DEN (missing, blank): one row of their own.
    expect(stats.breakdown.rows.find((r) => r.name === null)).toEqual({
      name: null,
      den: null,
      totals: { scope: 2, curveCount: 2, foundationCompleted: 1, machinesInstalled: 0, machinesCommissioned: 0 },
      lastProgress: { foundation: '2025-01-01', installed: null, commissioned: null },
    });
  });

  it('counts every DEN and every (DEN, AEN) pair the filters offer an Admin as the rule does', async () => {
    // 4 DENs and 9 (DEN, AEN) pairs: all of them were asked.
    expect(await expectEveryFilter(admin, undefined)).toBe(4 + 9);
  });

  it('matches the hand-counted figures of a few DENs and AENs', async () => {
    // Curves 1-7, whatever the padding of curve 3's DEN.
    const rtm = await statsOf(admin, { den: 'Sr.DEN/RTM' });
    expect(rtm.totals).toEqual({ scope: 7, curveCount: 7, foundationCompleted: 4, machinesInstalled: 5, machinesCommissioned: 3 });
    expect(rtm.lastProgress).toEqual({ foundation: '2025-03-20', installed: '2025-05-10', commissioned: '2025-04-20' });
    expect(rtm.breakdown.level).toBe('AEN');
    const byAen = new Map(rtm.breakdown.rows.map((r) => [r.name, r]));
    expect([...byAen.keys()].sort()).toEqual([null, 'AEN/COMMON', 'AEN/NAD', 'AEN/RTM'].sort());
    expect(byAen.get('AEN/NAD')).toEqual({
      name: 'AEN/NAD',
      den: 'Sr.DEN/RTM',
      totals: { scope: 3, curveCount: 3, foundationCompleted: 2, machinesInstalled: 2, machinesCommissioned: 1 },
      lastProgress: { foundation: '2025-03-14', installed: '2025-04-02', commissioned: '2025-04-20' },
    });
    // Curves 5 and 6: AEN missing and blank.
    expect(byAen.get(null)).toEqual({
      name: null,
      den: 'Sr.DEN/RTM',
      totals: { scope: 2, curveCount: 2, foundationCompleted: 1, machinesInstalled: 1, machinesCommissioned: 1 },
      lastProgress: { foundation: null, installed: '2025-05-10', commissioned: null },
    });
    // Curve 7: an impossible foundation date is not done; 29.02.2024 is.
    expect(byAen.get('AEN/COMMON')?.totals).toEqual({ scope: 1, curveCount: 1, foundationCompleted: 0, machinesInstalled: 1, machinesCommissioned: 1 });
    expect(byAen.get('AEN/COMMON')?.lastProgress).toEqual({ foundation: null, installed: '2024-02-29', commissioned: null });

    const nad = await statsOf(admin, { den: 'Sr.DEN/RTM', aen: 'AEN/NAD' });
    expect(nad.totals).toEqual({ scope: 3, curveCount: 3, foundationCompleted: 2, machinesInstalled: 2, machinesCommissioned: 1 });

    const fzr = await statsOf(admin, { den: 'DEN/FZR' });
    expect(fzr.totals).toEqual({ scope: 4, curveCount: 4, foundationCompleted: 3, machinesInstalled: 1, machinesCommissioned: 2 });
    expect(fzr.lastProgress).toEqual({ foundation: '2025-07-01', installed: '2025-04-02', commissioned: '2025-04-03' });

    // Done words without dates count, but give no date.
    const brc = await statsOf(admin, { den: 'DEN/BRC' });
    expect(brc.totals).toEqual({ scope: 1, curveCount: 1, foundationCompleted: 1, machinesInstalled: 1, machinesCommissioned: 1 });
    expect(brc.lastProgress).toEqual(NO_PROGRESS);

    // A DEN of two divisions counts both for an Admin.
    const shared = await statsOf(admin, { den: 'DEN/SHARED' });
    expect(shared.totals).toEqual({ scope: 2, curveCount: 2, foundationCompleted: 2, machinesInstalled: 1, machinesCommissioned: 1 });
    expect(shared.lastProgress).toEqual({ foundation: '2025-10-10', installed: '2025-06-16', commissioned: '2025-06-17' });

    // An AEN under two DENs, asked without a DEN: curves 7 and 13, a row per DEN.
    const common = await statsOf(admin, { aen: 'AEN/COMMON' });
    expect(common.totals).toEqual({ scope: 2, curveCount: 2, foundationCompleted: 1, machinesInstalled: 1, machinesCommissioned: 1 });
    expect(common.breakdown.level).toBe('DEN');
    expect(common.breakdown.rows.map((r) => r.name).sort()).toEqual(['DEN/FZR', 'Sr.DEN/RTM']);
  });

  it("reads '', 'all' and padded values as no filter and the trimmed name", async () => {
    const all = await statsOf(admin);
    expect(await statsOf(admin, { den: '', aen: '' })).toEqual(all);
    expect(await statsOf(admin, { den: 'all', aen: 'all' })).toEqual(all);
    expect(await statsOf(admin, { den: 'ALL' })).toEqual(all);
    expect(await statsOf(admin, { den: ' Sr.DEN/RTM ', aen: ' AEN/NAD ' })).toEqual(await statsOf(admin, { den: 'Sr.DEN/RTM', aen: 'AEN/NAD' }));
    expect(await statsOf(admin, { den: 'Sr.DEN/RTM', aen: 'all' })).toEqual(await statsOf(admin, { den: 'Sr.DEN/RTM' }));
  });

  it('answers zeros and an empty table for a DEN or AEN with no curves', async () => {
    for (const where of [{ den: 'DEN/NOWHERE' }, { den: 'Sr.DEN/RTM', aen: 'AEN/FZR' }, { aen: 'AEN/NOWHERE' }]) {
      const stats = await statsOf(admin, where);
      expect(stats.totals, JSON.stringify(where)).toEqual(ZERO);
      expect(stats.lastProgress).toEqual(NO_PROGRESS);
      expect(stats.breakdown.rows).toEqual([]);
    }
  });

  it("holds a Client to their division's curves, whatever DEN they ask", async () => {
    // Curves 1-9.
    const mine = await expectStats(clientRtm, 'RTM/WR', {});
    expect(mine.totals).toEqual({ scope: 9, curveCount: 9, foundationCompleted: 6, machinesInstalled: 6, machinesCommissioned: 4 });
    expect(mine.lastProgress).toEqual({ foundation: '2025-06-15', installed: '2025-06-16', commissioned: '2025-06-17' });
    expect(await expectEveryFilter(clientRtm, 'RTM/WR')).toBe(2 + 4);
    // A DEN of two divisions: their curve 9 only.
    const shared = await statsOf(clientRtm, { den: 'DEN/SHARED' });
    expect(shared.totals).toEqual({ scope: 1, curveCount: 1, foundationCompleted: 1, machinesInstalled: 1, machinesCommissioned: 1 });
    expect(shared.breakdown.rows.map((r) => r.name)).toEqual(['AEN/S1']);
    // Another division's DEN or AEN: nothing.
    for (const where of [{ den: 'DEN/FZR' }, { den: 'DEN/BRC' }, { den: 'DEN/FZR', aen: 'AEN/FZR' }, { aen: 'AEN/JUC' }]) {
      const other = await statsOf(clientRtm, where);
      expect(other.totals, JSON.stringify(where)).toEqual(ZERO);
      expect(other.lastProgress).toEqual(NO_PROGRESS);
      expect(other.breakdown.rows).toEqual([]);
    }
    // The shared AEN under another division's DEN is not theirs either.
    expect((await statsOf(clientRtm, { den: 'DEN/FZR', aen: 'AEN/COMMON' })).totals).toEqual(ZERO);
    expect((await statsOf(clientRtm, { aen: 'AEN/COMMON' })).totals).toMatchObject({ scope: 1 });

    const fzr = await expectStats(clientFzr, 'FZR/NR', {});
    expect(fzr.totals).toEqual({ scope: 4, curveCount: 4, foundationCompleted: 3, machinesInstalled: 1, machinesCommissioned: 2 });
    await expectEveryFilter(clientFzr, 'FZR/NR');
  });

  it('gives a Client without a division nothing', async () => {
    for (const where of [{}, { den: 'Sr.DEN/RTM' }, { den: 'Sr.DEN/RTM', aen: 'AEN/NAD' }]) {
      const stats = await statsOf(clientNone, where);
      expect(stats.totals).toEqual(ZERO);
      expect(stats.lastProgress).toEqual(NO_PROGRESS);
      expect(stats.breakdown.rows).toEqual([]);
    }
  });

  it('refuses a DEN over 100 or an AEN over 150 characters with a 400 naming it', async () => {
    const longDen = await get(`/api/machine-stats${query({ den: 'D'.repeat(101) })}`, admin);
    expect(longDen.statusCode).toBe(400);
    expect(errorOf(longDen).code).toBe('VALIDATION_FAILED');
    expect(errorOf(longDen).fields).toHaveProperty('den');
    const longAen = await get(`/api/machine-stats${query({ aen: 'A'.repeat(151) })}`, admin);
    expect(longAen.statusCode).toBe(400);
    expect(errorOf(longAen).fields).toHaveProperty('aen');
    // The longest allowed are read.
    expect((await get(`/api/machine-stats${query({ den: 'D'.repeat(100), aen: 'A'.repeat(150) })}`, admin)).statusCode).toBe(200);
  });
});

describe('who may read the machine dashboard and the progress cards', () => {
  const readers = ['/api/machine-filters', '/api/machine-stats', '/api/machine-stats?den=Sr.DEN%2FRTM', '/api/machine-progress', '/api/machine-progress?division=RTM%2FWR'];

  it('refuses Technicians (403) and anonymous callers (401)', async () => {
    for (const url of readers) {
      const byTechnician = await get(url, technician);
      expect(byTechnician.statusCode, url).toBe(403);
      expect(errorOf(byTechnician).code).toBe('FORBIDDEN');
      const anonymous = await get(url);
      expect(anonymous.statusCode, url).toBe(401);
      expect(errorOf(anonymous).code).toBe('NOT_AUTHENTICATED');
    }
  });

  it('answers Admins, the owner and Clients, never to be cached', async () => {
    for (const url of readers) {
      for (const cookie of [admin, owner, clientRtm, clientNone]) {
        const response = await get(url, cookie);
        expect(response.statusCode, url).toBe(200);
        expect(response.headers['cache-control'], url).toBe('no-store');
      }
    }
  });
});

describe("the owner's figures (machine_dashboard_summary)", () => {
  const ownerRoutes = [
    { method: 'GET' as const, url: '/api/machine-dashboard-summaries' },
    { method: 'GET' as const, url: '/api/machine-dashboard-summary' },
    { method: 'GET' as const, url: '/api/machine-dashboard-summary?division=FZR%2FNR' },
    {
      method: 'PUT' as const,
      url: '/api/machine-dashboard-summary',
      payload: { division: 'JBP/WCR', scope: 4, foundationCompleted: 3, machinesInstalled: 2, machinesCommissioned: 1 },
    },
  ];

  it('are for the owner alone: other Admins, Clients (even one named an owner) and Technicians 403, anonymous 401, nothing written', async () => {
    const [rowsBefore, auditsBefore] = [await summaryRowCount(), await auditCount()];
    for (const route of ownerRoutes) {
      for (const cookie of [admin, clientRtm, clientOwner, technician]) {
        const response = await t.app.inject({ ...route, headers: { cookie } });
        expect(response.statusCode, `${route.method} ${route.url}`).toBe(403);
        expect(errorOf(response).code).toBe('FORBIDDEN');
      }
      const anonymous = await t.app.inject({ ...route });
      expect(anonymous.statusCode).toBe(401);
      expect(errorOf(anonymous).code).toBe('NOT_AUTHENTICATED');
    }
    expect(await summaryRowCount()).toBe(rowsBefore);
    expect(await auditCount()).toBe(auditsBefore);
  });

  it('lists the five divisions, zero and never updated before anything is entered', async () => {
    await t.database.db.execute(sql`delete from machine_dashboard_summary`);
    const response = await get('/api/machine-dashboard-summaries', owner);
    expect(response.statusCode, response.body).toBe(200);
    const { summaries } = machineSummariesResponseSchema.parse(response.json());
    expect(summaries).toEqual(
      DIVISIONS.map((division) => ({ division, scope: 0, foundationCompleted: 0, machinesInstalled: 0, machinesCommissioned: 0, updatedAt: null })),
    );
    const one = await get('/api/machine-dashboard-summary', owner);
    expect(one.statusCode).toBe(200);
    expect(machineSummarySchema.parse(one.json())).toEqual({
      division: 'RTM/WR',
      scope: 0,
      foundationCompleted: 0,
      machinesInstalled: 0,
      machinesCommissioned: 0,
      updatedAt: null,
    });
    const unknown = await get('/api/machine-dashboard-summary?division=XYZ', owner);
    expect(unknown.statusCode).toBe(400);
    expect(errorOf(unknown).fields).toHaveProperty('division');
  });

  it('saves a division’s figures, answers them, and audits a create and an update with before and after', async () => {
    await t.database.db.execute(sql`delete from machine_dashboard_summary`);
    const auditsBefore = (await auditEntries()).length;

    const created = await putOk({ division: 'NDLS/NR', scope: 40, foundationCompleted: 30, machinesInstalled: 20, machinesCommissioned: 10 });
    expect(created).toMatchObject({ division: 'NDLS/NR', scope: 40, foundationCompleted: 30, machinesInstalled: 20, machinesCommissioned: 10 });
    expect(created.updatedAt).not.toBeNull();
    expect(Number.isNaN(Date.parse(created.updatedAt ?? ''))).toBe(false);
    const read = await get('/api/machine-dashboard-summary?division=NDLS%2FNR', owner);
    expect(machineSummarySchema.parse(read.json())).toEqual(created);

    // Equal figures are possible.
    const updated = await putOk({ division: 'NDLS/NR', scope: 42, foundationCompleted: 42, machinesInstalled: 42, machinesCommissioned: 41 });
    expect(updated).toMatchObject({ division: 'NDLS/NR', scope: 42, foundationCompleted: 42, machinesInstalled: 42, machinesCommissioned: 41 });
    const { summaries } = machineSummariesResponseSchema.parse((await get('/api/machine-dashboard-summaries', owner)).json());
    expect(summaries.map((s) => s.division)).toEqual([...DIVISIONS]);
    expect(summaries.find((s) => s.division === 'NDLS/NR')).toEqual(updated);
    expect(summaries.filter((s) => s.division !== 'NDLS/NR').every((s) => s.scope === 0 && s.updatedAt === null)).toBe(true);

    const entries = await auditEntries();
    expect(entries.length).toBe(auditsBefore + 2);
    // Newest first.
    const [update, create] = entries;
    expect(create).toMatchObject({
      actorEmployeeId: OWNER_ID,
      action: 'machine-summary.update',
      entity: 'machine_dashboard_summary',
      entityId: 'NDLS/NR',
      before: null,
      after: { division: 'NDLS/NR', scope: 40, foundationCompleted: 30, machinesInstalled: 20, machinesCommissioned: 10 },
    });
    expect(update).toMatchObject({
      actorEmployeeId: OWNER_ID,
      action: 'machine-summary.update',
      entity: 'machine_dashboard_summary',
      entityId: 'NDLS/NR',
      before: { division: 'NDLS/NR', scope: 40, foundationCompleted: 30, machinesInstalled: 20, machinesCommissioned: 10 },
      after: { division: 'NDLS/NR', scope: 42, foundationCompleted: 42, machinesInstalled: 42, machinesCommissioned: 41 },
    });
  });

  it('writes no audit entry for a save that changes nothing', async () => {
    const first = await putOk({ division: 'JBP/WCR', scope: 9, foundationCompleted: 5, machinesInstalled: 5, machinesCommissioned: 0 });
    const [rows, audits] = [await summaryRowCount(), await auditCount()];
    const again = await putOk({ division: 'JBP/WCR', scope: 9, foundationCompleted: 5, machinesInstalled: 5, machinesCommissioned: 0 });
    expect(again).toEqual(first);
    expect(await summaryRowCount()).toBe(rows);
    expect(await auditCount()).toBe(audits);
  });

  it("audits two saves of a division's first figures at once as a create and then an update", async () => {
    // Two owner tabs saving at the same moment: whichever lands second changed the first's
    // figures, and its audit entry must say so (on PostgreSQL the requests really overlap).
    await t.database.db.execute(sql`delete from machine_dashboard_summary where division = 'JBP/WCR'`);
    const payloads = [
      { division: 'JBP/WCR', scope: 11, foundationCompleted: 1, machinesInstalled: 1, machinesCommissioned: 1 },
      { division: 'JBP/WCR', scope: 22, foundationCompleted: 2, machinesInstalled: 2, machinesCommissioned: 2 },
    ];
    const known = new Set((await auditEntries()).map((e) => e.id));
    const responses = await Promise.all(payloads.map((p) => put(owner, p)));
    expect(responses.map((r) => r.statusCode)).toEqual([200, 200]);
    const entries = (await auditEntries()).filter((e) => !known.has(e.id));
    expect(entries.map((e) => e.entityId)).toEqual(['JBP/WCR', 'JBP/WCR']);
    // Exactly one of them created the row; the other saw its figures.
    expect(
      entries.map((e) => e.before === null).sort(),
      `audit befores: ${entries.map((e) => JSON.stringify(e.before)).join(' ')}`,
    ).toEqual([false, true]);
    const first = entries.find((e) => e.before === null);
    const second = entries.find((e) => e.before !== null);
    expect(second?.before).toEqual(first?.after);
    const stored = machineSummarySchema.parse((await get('/api/machine-dashboard-summary?division=JBP%2FWCR', owner)).json());
    const { updatedAt: _at, ...storedFigures } = stored;
    expect(second?.after).toEqual(storedFigures);
  });

  it('refuses impossible figures with a 400 naming the field, and writes nothing', async () => {
    const saved = await putOk({ division: 'BRC/WR', scope: 10, foundationCompleted: 8, machinesInstalled: 6, machinesCommissioned: 4 });
    const good = { division: 'BRC/WR', scope: 20, foundationCompleted: 15, machinesInstalled: 10, machinesCommissioned: 5 };
    const cases: Array<{ payload: object; field: string }> = [
      { payload: { ...good, scope: 1.5 }, field: 'scope' },
      { payload: { ...good, scope: -1 }, field: 'scope' },
      { payload: { ...good, scope: 100_001 }, field: 'scope' },
      { payload: { ...good, scope: '20' }, field: 'scope' },
      { payload: { ...good, foundationCompleted: -3 }, field: 'foundationCompleted' },
      { payload: { ...good, foundationCompleted: 2.5 }, field: 'foundationCompleted' },
      { payload: { ...good, machinesInstalled: 'ten' }, field: 'machinesInstalled' },
      { payload: { ...good, machinesInstalled: null }, field: 'machinesInstalled' },
      { payload: { ...good, machinesCommissioned: '5' }, field: 'machinesCommissioned' },
      { payload: { ...good, machinesCommissioned: 100_001 }, field: 'machinesCommissioned' },
      { payload: { division: 'BRC/WR', scope: 20, foundationCompleted: 15, machinesInstalled: 10 }, field: 'machinesCommissioned' },
      { payload: { ...good, division: 'XYZ' }, field: 'division' },
      { payload: { ...good, division: 'all' }, field: 'division' },
      { payload: { scope: 20, foundationCompleted: 15, machinesInstalled: 10, machinesCommissioned: 5 }, field: 'division' },
      // Figures out of order: no stage more than the one before it.
      { payload: { ...good, foundationCompleted: 21 }, field: 'foundationCompleted' },
      { payload: { ...good, machinesInstalled: 16 }, field: 'machinesInstalled' },
      { payload: { ...good, machinesCommissioned: 11 }, field: 'machinesCommissioned' },
      { payload: { division: 'BRC/WR', scope: 0, foundationCompleted: 0, machinesInstalled: 0, machinesCommissioned: 1 }, field: 'machinesCommissioned' },
    ];
    const [rows, audits] = [await summaryRowCount(), await auditCount()];
    for (const { payload, field } of cases) {
      const where = JSON.stringify(payload);
      const response = await put(owner, payload);
      expect(response.statusCode, where).toBe(400);
      const error = errorOf(response);
      expect(error.code, where).toBe('VALIDATION_FAILED');
      expect(Object.keys(error.fields ?? {}), where).toContain(field);
    }
    // An impossible save to a division never entered creates nothing either.
    const fresh = await put(owner, { division: 'FZR/NR', scope: 1, foundationCompleted: 2, machinesInstalled: 0, machinesCommissioned: 0 });
    expect(fresh.statusCode).toBe(400);
    expect(errorOf(fresh).fields).toHaveProperty('foundationCompleted');

    expect(await summaryRowCount()).toBe(rows);
    expect(await auditCount()).toBe(audits);
    const read = await get('/api/machine-dashboard-summary?division=BRC%2FWR', owner);
    expect(machineSummarySchema.parse(read.json())).toEqual(saved);
    const never = await get('/api/machine-dashboard-summary?division=FZR%2FNR', owner);
    expect(machineSummarySchema.parse(never.json()).updatedAt).toBeNull();
  });
});

describe('GET /api/machine-progress', () => {
  it('answers no entered figures, and the count from the curve records, before the owner enters any', async () => {
    await t.database.db.execute(sql`delete from machine_dashboard_summary`);
    const all = await progressOf(admin);
    expect(all).toEqual({
      division: 'all',
      summary: null,
      fromCurveRecords: { scope: 16, foundationCompleted: 11, machinesInstalled: 8, machinesCommissioned: 7 },
    });
    // A division with neither.
    expect(await progressOf(admin, 'JBP/WCR')).toEqual({ division: 'JBP/WCR', summary: null, fromCurveRecords: null });
  });

  it("shows the owner's figures beside the per-curve count, for all and for one division", async () => {
    await t.database.db.execute(sql`delete from machine_dashboard_summary`);
    const rtm = await putOk({ division: 'RTM/WR', scope: 20, foundationCompleted: 15, machinesInstalled: 10, machinesCommissioned: 5 });
    const ndls = await putOk({ division: 'NDLS/NR', scope: 7, foundationCompleted: 3, machinesInstalled: 2, machinesCommissioned: 1 });

    const { updatedAt: rtmAt, division: _r, ...rtmFigures } = rtm;
    const one = await progressOf(admin, 'RTM/WR');
    expect(one).toEqual({
      division: 'RTM/WR',
      summary: { ...rtmFigures, updatedAt: rtmAt },
      fromCurveRecords: { scope: 9, foundationCompleted: 6, machinesInstalled: 6, machinesCommissioned: 4 },
    });
    // The two sources disagree here, and both are shown.
    expect(one.summary?.scope).not.toBe(one.fromCurveRecords?.scope);
    const fromRecords = expectedOf({ division: 'RTM/WR' }).totals;
    expect(one.fromCurveRecords).toEqual({
      scope: fromRecords.scope,
      foundationCompleted: fromRecords.foundationCompleted,
      machinesInstalled: fromRecords.machinesInstalled,
      machinesCommissioned: fromRecords.machinesCommissioned,
    });

    // Entered figures without curve records, curve records without entered figures.
    expect(await progressOf(admin, 'NDLS/NR')).toEqual({
      division: 'NDLS/NR',
      summary: { scope: 7, foundationCompleted: 3, machinesInstalled: 2, machinesCommissioned: 1, updatedAt: ndls.updatedAt },
      fromCurveRecords: null,
    });
    expect(await progressOf(admin, 'BRC/WR')).toEqual({
      division: 'BRC/WR',
      summary: null,
      fromCurveRecords: { scope: 3, foundationCompleted: 2, machinesInstalled: 1, machinesCommissioned: 1 },
    });

    // All: the sum of the entered rows, the latest update, and every curve record.
    const all = await progressOf(admin, 'all');
    const latestAt = [rtm.updatedAt, ndls.updatedAt].sort().at(-1);
    expect(all).toEqual({
      division: 'all',
      summary: { scope: 27, foundationCompleted: 18, machinesInstalled: 12, machinesCommissioned: 6, updatedAt: latestAt },
      fromCurveRecords: { scope: 16, foundationCompleted: 11, machinesInstalled: 8, machinesCommissioned: 7 },
    });
    expect(await progressOf(admin)).toEqual(all);
    expect(await progressOf(owner)).toEqual(all);
  });

  it("gives a Client their own division's figures whatever they ask, and a Client without one nothing", async () => {
    await t.database.db.execute(sql`delete from machine_dashboard_summary`);
    const rtm = await putOk({ division: 'RTM/WR', scope: 20, foundationCompleted: 15, machinesInstalled: 10, machinesCommissioned: 5 });
    await putOk({ division: 'FZR/NR', scope: 6, foundationCompleted: 4, machinesInstalled: 3, machinesCommissioned: 2 });
    const expected: MachineProgressResponse = {
      division: 'RTM/WR',
      summary: { scope: 20, foundationCompleted: 15, machinesInstalled: 10, machinesCommissioned: 5, updatedAt: rtm.updatedAt },
      fromCurveRecords: { scope: 9, foundationCompleted: 6, machinesInstalled: 6, machinesCommissioned: 4 },
    };
    for (const division of [undefined, 'all', 'RTM/WR', 'FZR/NR', 'BRC/WR']) {
      expect(await progressOf(clientRtm, division), String(division)).toEqual(expected);
    }
    const fzr = await progressOf(clientFzr, 'all');
    expect(fzr.division).toBe('FZR/NR');
    expect(fzr.summary).toMatchObject({ scope: 6, foundationCompleted: 4, machinesInstalled: 3, machinesCommissioned: 2 });
    expect(fzr.fromCurveRecords).toEqual({ scope: 4, foundationCompleted: 3, machinesInstalled: 1, machinesCommissioned: 2 });
    const none = await progressOf(clientNone, 'RTM/WR');
    expect(none.summary).toBeNull();
    expect(none.fromCurveRecords).toBeNull();
  });

  it('refuses an unknown division (400 naming division)', async () => {
    const response = await get('/api/machine-progress?division=XYZ', admin);
    expect(response.statusCode).toBe(400);
    expect(errorOf(response).fields).toHaveProperty('division');
  });
});

describe('the figures follow every write to curve_records at once', () => {
  /** Everything a user of the dashboard sees, checked against the oracle on the rows now in the table. */
  async function expectCurrent() {
    await expectStats(admin, undefined, {});
    await expectStats(clientRtm, 'RTM/WR', {});
    await expectStats(admin, undefined, { den: 'Sr.DEN/RTM' });
    await expectStats(admin, undefined, { den: 'DEN/FZR' });
    expect(await filtersOf(admin)).toEqual(expectedFilters(undefined));
    expect(await filtersOf(admin, 'Sr.DEN/RTM')).toEqual(expectedFilters(undefined, 'Sr.DEN/RTM'));
    expect(await filtersOf(clientRtm)).toEqual(expectedFilters('RTM/WR'));
    const rtm = expectedOf({ division: 'RTM/WR' }).totals;
    expect((await progressOf(clientRtm)).fromCurveRecords).toEqual({
      scope: rtm.scope,
      foundationCompleted: rtm.foundationCompleted,
      machinesInstalled: rtm.machinesInstalled,
      machinesCommissioned: rtm.machinesCommissioned,
    });
  }

  it('after rows inserted, updated and deleted with SQL', async () => {
    const db = t.database.db;
    // Warm the caches first.
    await expectCurrent();
    const before = await statsOf(admin);

    await db.execute(sql`
      insert into curve_records (no, division_railway, section, curve_number, line, den, aen, foundation_actual, machine_actual, commissioned)
      values (901, 'RTM/WR', 'RTM-NAD', 'SQL-1', 'UP', 'Sr.DEN/RTM', 'AEN/NEW', '01.11.2025', 'Pending', null)`);
    curves = [
      ...curves,
      { no: 901, division: 'RTM/WR', section: 'RTM-NAD', curveNumber: 'SQL-1', line: 'UP', den: 'Sr.DEN/RTM', aen: 'AEN/NEW', foundation: '01.11.2025', machine: 'Pending', commissioned: null },
    ];
    const inserted = await statsOf(admin);
    expect(inserted.totals).toEqual({
      ...before.totals,
      scope: before.totals.scope + 1,
      curveCount: before.totals.curveCount + 1,
      foundationCompleted: before.totals.foundationCompleted + 1,
    });
    expect(inserted.lastProgress.foundation).toBe('2025-11-01');
    expect((await filtersOf(admin, 'Sr.DEN/RTM')).aens).toContain('AEN/NEW');
    await expectCurrent();

    const update = (set: Partial<Curve>) => {
      curves = curves.map((c) => (c.curveNumber === 'SQL-1' ? { ...c, ...set } : c));
    };
    await db.execute(sql`update curve_records set machine_actual = 'Done', commissioned = '02.11.2025' where curve_number = 'SQL-1'`);
    update({ machine: 'Done', commissioned: '02.11.2025' });
    const updated = await statsOf(admin);
    expect(updated.totals).toMatchObject({ machinesInstalled: before.totals.machinesInstalled + 1, machinesCommissioned: before.totals.machinesCommissioned + 1 });
    expect(updated.lastProgress.commissioned).toBe('2025-11-02');
    await expectCurrent();

    // Moved to another DEN and division: the Client's figures drop, the Admin's total stays.
    const clientBefore = await statsOf(clientRtm);
    await db.execute(sql`update curve_records set division_railway = 'FZR/NR', den = 'DEN/FZR', aen = 'AEN/FZR' where curve_number = 'SQL-1'`);
    update({ division: 'FZR/NR', den: 'DEN/FZR', aen: 'AEN/FZR' });
    expect((await statsOf(clientRtm)).totals.scope).toBe(clientBefore.totals.scope - 1);
    expect((await statsOf(admin)).totals).toEqual(updated.totals);
    expect((await filtersOf(admin, 'Sr.DEN/RTM')).aens).not.toContain('AEN/NEW');
    await expectCurrent();

    await db.execute(sql`delete from curve_records where curve_number = 'SQL-1'`);
    curves = curves.filter((c) => c.curveNumber !== 'SQL-1');
    expect(await statsOf(admin)).toEqual(before);
    await expectCurrent();
  });

  it('after a write by another server instance on the same database', async () => {
    const other = await buildApp({ config: { ...TEST_CONFIG, ...CONFIG }, database: t.database, blobs: t.blobs, webRoot: path.join(os.tmpdir(), 'hkmi-no-web') });
    await other.ready();
    try {
      const before = await statsOf(admin);
      expect(await statsOf(admin, {}, other)).toEqual(before);
      await t.database.db.execute(sql`update curve_records set commissioned = 'Pending' where no = 14`);
      curves = curves.map((c) => (c.no === 14 ? { ...c, commissioned: 'Pending' } : c));
      const expected = { ...before.totals, machinesCommissioned: before.totals.machinesCommissioned - 1 };
      expect((await statsOf(admin)).totals).toEqual(expected);
      expect((await statsOf(admin, {}, other)).totals).toEqual(expected);
      await expectCurrent();
    } finally {
      await other.close();
    }
  });

  it('after the table is emptied', async () => {
    await statsOf(admin);
    await t.database.db.execute(sql`truncate curve_records`);
    curves = [];
    const stats = await statsOf(admin);
    expect(stats.totals).toEqual(ZERO);
    expect(stats.lastProgress).toEqual(NO_PROGRESS);
    expect(stats.breakdown.rows).toEqual([]);
    expect(await filtersOf(admin)).toEqual({ dens: [], aens: [] });
    expect(await filtersOf(clientRtm)).toEqual({ dens: [], aens: [] });
    expect((await progressOf(admin)).fromCurveRecords).toBeNull();
  });
});
