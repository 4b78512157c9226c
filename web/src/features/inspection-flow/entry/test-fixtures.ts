/* eslint-disable lingui/no-unlocalized-strings -- test data, only imported by tests: no text here reaches a person */
/** Curves, stations and a stored entry shaped like the API's answers, for the flow's tests. */
import { addDays, dateInTimeZone } from '../../../../../common/rules/dates.js';
import type { Curve } from '../../../../../common/schemas/curve.js';
import type { ScheduleEntry, ScheduleResponse } from '../../../../../common/schemas/schedule.js';
import type { SessionEntry } from '../../../../../common/schemas/inspection.js';
import type { Station } from '../../../../../common/schemas/reference.js';
import { INSPECTION_ENTRY_KEY } from '../../../lib/storage-keys.js';
import { jsonResponse, type RecordedRequest, stubFetch } from '../../../test/fetch-stub.js';
import { storeUser, technician } from '../../../test/users.js';

let nextId = 1;
function curve(fields: Partial<Curve> & Pick<Curve, 'divisionRailway' | 'section' | 'curveNumber' | 'line'>): Curve {
  const id = nextId++;
  return {
    id,
    no: id,
    hkmCode: null,
    kmFrom: null,
    metFrom: null,
    kmTo: null,
    metTo: null,
    length: null,
    station1: null,
    station2: null,
    degree: null,
    den: null,
    aen: null,
    sse: null,
    comments: null,
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
    ...fields,
  };
}

export const CURVES: Curve[] = [
  // Curve 12 is laid on both lines of RTM-NAD, as records allow (section, number and line).
  curve({ divisionRailway: 'RTM/WR', section: 'RTM-NAD', curveNumber: '12', line: 'UP', hkmCode: 1010, sse: 'Verma', station1: 'RTM', station2: 'Naguda' }),
  curve({ divisionRailway: 'RTM/WR', section: 'RTM-NAD', curveNumber: '12', line: 'DN', hkmCode: 1002, sse: 'Anand', station1: 'Somewhere Else', station2: null }),
  curve({ divisionRailway: 'RTM/WR', section: 'RTM-NAD', curveNumber: '7', line: 'Up', hkmCode: 1001, sse: 'SSE' }),
  curve({ divisionRailway: 'RTM/WR', section: 'RTM-NAD', curveNumber: '15', line: 'DN', hkmCode: 998, sse: 'Chopra' }),
  curve({ divisionRailway: 'RTM/WR', section: 'RTM-NAD', curveNumber: '20', line: 'Up', sse: '' }),
  curve({ divisionRailway: 'RTM/WR', section: 'BEC Bypass', curveNumber: '3', line: 'UP', hkmCode: 2001, sse: 'Bhatt' }),
  curve({ divisionRailway: 'FZR/NR', section: 'FZR-BTI', curveNumber: '40', line: 'SL', hkmCode: 3001, sse: 'Singh' }),
  curve({ divisionRailway: 'BRC/WR', section: 'BRC-ANND', curveNumber: '9', line: 'Down', hkmCode: 4001, sse: 'Zala' }),
];

export const STATIONS: Station[] = [
  { id: 1, no: 1, stationName: 'Ratlam', stationCode: 'RTM', section: 'RTM-NAD', divisionRailway: 'RTM/WR' },
  { id: 2, no: 2, stationName: 'Naguda', stationCode: 'NAD', section: 'RTM-NAD', divisionRailway: 'RTM/WR' },
  { id: 3, no: 3, stationName: 'Bhatinda', stationCode: 'BTI', section: 'FZR-BTI', divisionRailway: 'FZR/NR' },
];

export const PART_CATEGORIES = ['Pump', 'Nozzle'];
export const PARTS: Record<string, { id: number; itemName: string }[]> = {
  Pump: [
    { id: 1, itemName: 'Pump motor' },
    { id: 2, itemName: 'Pump seal' },
  ],
  Nozzle: [{ id: 3, itemName: 'Nozzle tip' }],
};

/** Today in the railway's time zone, as the phone works it out. */
export const scheduleToday = () => dateInTimeZone(new Date(), 'Asia/Kolkata');

const neverVisited = { state: 'never', lastDate: null, lastTechnician: null, dueDate: null, daysSince: null, daysOverdue: 0, daysUntilDue: null } as const;

/**
 * The schedule the server would send for CURVES (its states are what the phone recomputes):
 * RTM-NAD 15 (DN) last serviced 21 days ago, so 6 days overdue; RTM-NAD 12 (UP) last measured
 * 28 days ago with a high reading, so CoF due in 2 days; RTM-NAD 20 (Up) has no machine (its
 * rollout record says none, and nobody serviced it); every other curve has a machine and was
 * never visited.
 */
export function scheduleFor(curves: readonly Curve[], today = scheduleToday()): ScheduleResponse {
  const entries: ScheduleEntry[] = curves.map((c) => ({
    divisionRailway: c.divisionRailway,
    section: c.section,
    curveNumber: c.curveNumber,
    line: c.line,
    hkmCode: c.hkmCode,
    sse: c.sse,
    rolloutMachine: true,
    service: { ...neverVisited, serviceUpdate: null },
    cof: { ...neverVisited, lastValue: null, high: false },
  }));
  for (const entry of entries) {
    if (entry.section === 'RTM-NAD' && entry.curveNumber === '20') {
      entry.rolloutMachine = false;
      entry.service = { ...entry.service, state: 'no-machine' };
      entry.cof = { ...entry.cof, state: 'no-machine' };
    }
    if (entry.section === 'RTM-NAD' && entry.curveNumber === '15') {
      entry.service = { ...entry.service, state: 'overdue', lastDate: addDays(today, -21), lastTechnician: 'Ravi Meena', serviceUpdate: 'working-fine', dueDate: addDays(today, -6), daysSince: 21, daysOverdue: 6 };
    }
    if (entry.section === 'RTM-NAD' && entry.curveNumber === '12' && entry.line === 'UP') {
      entry.cof = { ...entry.cof, state: 'due-soon', lastDate: addDays(today, -28), lastTechnician: 'Ravi Meena', lastValue: 0.31, high: true, dueDate: addDays(today, 2), daysSince: 28, daysUntilDue: 2 };
    }
  }
  return { asOf: today, timeZone: 'Asia/Kolkata', cofAlertThreshold: 0.25, total: entries.length, curves: entries, recentSections: ['RTM-NAD'] };
}

const healthy = () => jsonResponse(200, { status: 'ok', database: 'ok', version: '0.1.0' });

function queryParam(request: RecordedRequest, name: string): string | null {
  return new URL(request.url, 'http://localhost').searchParams.get(name);
}

/**
 * A signed-in Technician and the reference-data endpoints. Each answer can be replaced, e.g.
 * by a failing one, and every request the app made is returned.
 */
export function signedInWithReferenceData(
  overrides: Partial<Record<'curves' | 'schedule' | 'actions' | 'stations' | 'categories' | 'parts', (request: RecordedRequest) => Response | Promise<Response>>> = {},
): RecordedRequest[] {
  storeUser(technician);
  return stubFetch({
    'GET /api/health': healthy,
    'GET /api/auth/me': () => jsonResponse(200, { user: technician }),
    'GET /api/consolidated-curves': overrides.curves ?? (() => jsonResponse(200, { curves: CURVES, total: CURVES.length })),
    // No visits known unless a test asks for scheduleFor(CURVES): the pickers then show bare curves.
    'GET /api/schedule': overrides.schedule ?? (() => jsonResponse(200, scheduleFor([]))),
    // No follow-up actions open unless a test gives some.
    'GET /api/actions': overrides.actions ?? (() => jsonResponse(200, { asOf: '2026-11-23', total: 0, actions: [] })),
    'GET /api/stations':
      overrides.stations ??
      ((request) => jsonResponse(200, { stations: STATIONS.filter((s) => s.section === queryParam(request, 'section')) })),
    'GET /api/machine-parts/categories': overrides.categories ?? (() => jsonResponse(200, { categories: PART_CATEGORIES })),
    'GET /api/machine-parts':
      overrides.parts ?? ((request) => jsonResponse(200, { parts: PARTS[queryParam(request, 'category') ?? ''] ?? [] })),
  });
}

export const STORED_SERVICE_ENTRY: SessionEntry = {
  date: '2025-03-01',
  type: 'Service',
  divisionRailway: 'RTM/WR',
  section: 'RTM-NAD',
  curveNumber: '15',
  line: 'Down',
  station1: 'Ratlam',
  station2: 'Naguda',
  railwayEngineer: 'Chopra',
  sse: 'Chopra',
  cofValue: '',
  location: '',
  km: '',
  pole1: '',
  pole2: '',
  clientSubmissionId: '2f1c9b7e-4d3a-4c8e-9a1b-0c2d3e4f5a6b',
};

export function storeEntry(entry: SessionEntry): void {
  sessionStorage.setItem(INSPECTION_ENTRY_KEY, JSON.stringify(entry));
}

export function storedEntry(): unknown {
  return JSON.parse(sessionStorage.getItem(INSPECTION_ENTRY_KEY) ?? 'null');
}
