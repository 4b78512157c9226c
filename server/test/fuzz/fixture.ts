/**
 * The small, fixed world the fuzzer works in: the four callers, a few curves (one with a
 * space and a slash in its key), stations, parts, rollout records and inspection records with
 * photos. Every name and ID is fixed, so the same seed makes the same requests on every run,
 * and the domain hints below point the generated values at rows that exist.
 */
import fc from 'fast-check';
import { DIVISIONS, INSPECTION_TYPES, LINES } from '../../../common/constants.js';
import { curveRecords, machineParts, stations } from '../../db/schema.js';
import type { TestApp } from '../build-test-app.js';
import { createCurve, createUser, TEST_PASSWORD } from '../factories.js';
import { inspectionRow, insertInspectionRows } from '../inspections.js';
import { makeJpeg, sha256 } from '../photos.js';
import type { CallerName } from './requests.js';
import type { Hints, JsonSchema } from './schema-arbitrary.js';

/**
 * The signed-in callers. The Admin is an owner (OWNER_EMPLOYEE_IDS of TEST_CONFIG), so the
 * owner-only routes are reached past their access check too; the access walker
 * (server/features/access) is what checks who is refused where.
 */
export const CALLER_IDS: Record<Exclude<CallerName, 'anonymous'>, string> = {
  technician: 'FZ_TEC',
  client: 'FZ_CLI',
  admin: 'OWN0001',
};

const CURVES = [
  { divisionRailway: 'RTM/WR', section: 'RTM-NAD', curveNumber: '12', line: 'Up', hkmCode: 101, no: 1 },
  { divisionRailway: 'RTM/WR', section: 'RTM-NAD', curveNumber: '13/A', line: 'Down', hkmCode: 102, no: 2 },
  { divisionRailway: 'RTM/WR', section: 'BEC Bypass', curveNumber: '660/10-661/7', line: 'Single', no: 3 },
  { divisionRailway: 'FZR/NR', section: 'FZR-LDH', curveNumber: '7', line: 'Up', hkmCode: 201, no: 4 },
];
const SECTIONS = [...new Set(CURVES.map((c) => c.section))];
const CURVE_NUMBERS = CURVES.map((c) => c.curveNumber);
export const RECORD_IDS = ['INS-20250110-FZ0001', 'INS-20250111-FZ0002', 'INS-20250112-FZ0003', 'INS-20250113-FZ0004'];
const DENS = ['Sr DEN/RTM', 'DEN/FZR'];
const AENS = ['AEN/NAD', 'AEN/LDH'];

export interface Fixture {
  photo: Buffer;
  photoHash: string;
  hints: Hints;
}

export async function seedFixture(t: TestApp): Promise<Fixture> {
  const db = t.database.db;
  await createUser(db, { role: 'Technician', employeeId: CALLER_IDS.technician, name: 'Fuzz Technician' });
  await createUser(db, { role: 'Client', employeeId: CALLER_IDS.client, name: 'Fuzz Client', divisionAccess: 'RTM/WR' });
  await createUser(db, { role: 'Admin', employeeId: CALLER_IDS.admin, name: 'Fuzz Owner' });
  for (const curve of CURVES) await createCurve(db, curve);
  await db.insert(stations).values([
    { no: 1, stationName: 'Ratlam Jn', stationCode: 'RTM', section: 'RTM-NAD', divisionRailway: 'RTM/WR' },
    { no: 2, stationName: 'Bangrod', stationCode: 'BOD', section: 'RTM-NAD', divisionRailway: 'RTM/WR' },
    { no: 1, stationName: 'Ferozpur Cantt', stationCode: 'FZR', section: 'FZR-LDH', divisionRailway: 'FZR/NR' },
  ]);
  await db.insert(machineParts).values([
    { no: 1, category: 'Pump Assembly', itemName: 'Gear pump' },
    { no: 2, category: 'Nozzle', itemName: 'Nozzle tip' },
  ]);
  await db.insert(curveRecords).values([
    { no: 1, divisionRailway: 'RTM/WR', section: 'RTM-NAD', curveNumber: '12', line: 'Up', den: DENS[0], aen: AENS[0], foundationActual: '2025-01-05', machineActual: 'Done', commissioned: null },
    { no: 2, divisionRailway: 'FZR/NR', section: 'FZR-LDH', curveNumber: '7', line: 'Up', den: DENS[1], aen: AENS[1], foundationActual: null, machineActual: null, commissioned: null },
  ]);

  // A small real JPEG (above the 6000-byte floor): cheap for the photo worker to decode.
  const photo = await makeJpeg(320, 240, 7);
  const stored = await t.blobs.put(photo);
  const rowPhoto = { hash: stored.hash, sizeBytes: stored.sizeBytes, width: 320, height: 240 };
  const [first, second, third, fourth] = RECORD_IDS as [string, string, string, string];
  await insertInspectionRows(db, [
    inspectionRow({ recordId: first, date: '2025-01-10', technicianId: CALLER_IDS.technician, technicianName: 'Fuzz Technician' }, rowPhoto),
    inspectionRow({ recordId: second, date: '2025-01-11', type: 'CoF', technicianId: CALLER_IDS.technician, technicianName: 'Fuzz Technician' }, rowPhoto),
    inspectionRow({ recordId: third, date: '2025-01-12', divisionRailway: 'FZR/NR', section: 'FZR-LDH', curveNumber: '7', technicianId: 'OTHER1' }),
    inspectionRow({ recordId: fourth, date: '2025-01-13', section: 'RTM-NAD', curveNumber: '13/A', line: 'Down', technicianId: CALLER_IDS.technician }, rowPhoto),
  ]);

  return { photo, photoHash: sha256(photo), hints: domainHints(sha256(photo)) };
}

/** The signed-in callers' password, for signing in again. */
export const CALLER_PASSWORD = TEST_PASSWORD;

const typeOf = (schema: JsonSchema) => (Array.isArray(schema.type) ? schema.type : [schema.type ?? '']);

/**
 * Domain values by property name: what the JSON Schema cannot say (a refinement naming the
 * divisions, a date that is real, a section that exists), so valid-ish values find rows.
 */
function domainHints(photoHash: string): Hints {
  // Mostly values that pass, now and then one that a refinement refuses (the mutations add more).
  const mostly = <T>(valid: readonly T[], odd: readonly T[]) => fc.oneof({ arbitrary: fc.constantFrom(...valid), weight: 6 }, { arbitrary: fc.constantFrom(...odd), weight: 1 });
  const dates = mostly(['2025-01-10', '2025-01-13', '2024-12-31', '2025-06-30'], ['2025-02-29', '2099-01-01', '']);
  return (key, schema) => {
    const types = typeOf(schema);
    const numeric = types.includes('integer') || types.includes('number');
    if (numeric && !types.includes('string')) {
      // Station IDs that exist, and rollout figures in an order that can be (scope >= foundations >= ...).
      const numbers: Record<string, fc.Arbitrary<number>> = {
        id: fc.integer({ min: 1, max: 5 }),
        scope: fc.constantFrom(20, 30),
        foundationCompleted: fc.constantFrom(12, 20),
        machinesInstalled: fc.constantFrom(8, 12),
        machinesCommissioned: fc.constantFrom(5, 8),
      };
      return numbers[key];
    }
    switch (key) {
      case 'division':
      case 'divisionRailway':
      case 'divisionAccess':
        return mostly(DIVISIONS, ['all', 'All', ' RTM/WR ']);
      case 'date':
      case 'from':
      case 'to':
      case 'fromDate':
      case 'toDate':
        return dates;
      case 'type':
        return mostly(INSPECTION_TYPES, ['all', '']);
      case 'section':
        return fc.constantFrom(...SECTIONS, 'all', 'Nowhere');
      case 'curveNumber':
        return fc.constantFrom(...CURVE_NUMBERS);
      case 'line':
        return fc.constantFrom(...LINES, 'UP', 'DN', 'SL');
      case 'recordId':
      case 'imageIds':
      case 'q':
        return fc.constantFrom(...RECORD_IDS, 'FZ0001', 'INS-NOPE');
      case 'id':
        return fc.constantFrom(...RECORD_IDS, '1', '2');
      case 'employeeId':
      case 'technicianId':
      case 'technician':
        return fc.constantFrom(...Object.values(CALLER_IDS), 'OTHER1', 'NEW_USER_1', 'fz_tec');
      case 'password':
      case 'currentPassword':
      case 'newPassword':
        return mostly([CALLER_PASSWORD, 'wrong password'], ['short', 'p'.repeat(201)]);
      case 'phone':
        return mostly(['9876543210', '+919876543210'], ['12345']);
      case 'name':
        return fc.constantFrom('Fuzz Person', 'Ravi Meena');
      case 'sse':
      case 'sseEngineer':
      case 'railwayEngineer':
        return fc.constantFrom('SSE/P.Way/NAD', 'all');
      case 'den':
        return fc.constantFrom(...DENS, 'all');
      case 'aen':
        return fc.constantFrom(...AENS, 'all');
      case 'category':
      case 'partCategory':
        return fc.constantFrom('Pump Assembly', 'Nozzle');
      case 'partItemName':
        return fc.constantFrom('Gear pump', 'Nozzle tip');
      case 'station1':
      case 'station2':
      case 'stationName':
        return fc.constantFrom('Ratlam Jn', 'Bangrod');
      case 'stationCode':
        return fc.constantFrom('RTM', 'BOD', 'NEW');
      case 'cofValue':
        return mostly(['0.31', '0.05'], ['0.', '1.2', '0.123']);
      case 'greaseDepth':
        return mostly<number | string>([4.5, '3.5'], ['10.01', '', 0.05]);
      case 'clientSubmissionId':
      case 'reportId':
      case 'taskId':
        return fc.uuid({ version: 4 });
      case 'photoSha256':
      case 'sha256':
        return fc.constantFrom(photoHash, '0'.repeat(64));
      case 'km':
      case 'pole1':
      case 'pole2':
        return fc.constantFrom('612/4', '18');
      default:
        return undefined;
    }
  };
}
