/**
 * Field visits of the last two months: Service inspections roughly every 15 days and CoF
 * measurements now and then, on every curve whose machine is commissioned. The schedule covers
 * the curves with a machine (common/rules/schedule.ts), so the demo's first start shows each
 * case: machines overdue (a last service 16 days or more ago) and in time, machines installed
 * but not yet commissioned that nobody has visited since installation ("never done"), the odd
 * machine uninstalled, and the curves without one ("No machine").
 */
import type { Division, InspectionType, Line } from '../../../common/constants.js';
import type { inspectionLogs } from '../schema.js';
import { addDays, compactDate, istInstant } from './calendar.js';
import { mastNumber, PLACEHOLDER_SSE, type DemoCurve } from './curves.js';
import { Random, SEEDS } from './random.js';
import { DIVISION_REFS, PART_CATALOGUE } from './reference-data.js';
import type { CommissionedCurve } from './rollout.js';
import { technicianName } from './users.js';

type ServiceUpdate = 'working-fine' | 'part-broken' | 'part-stolen' | 'uninstall';

/** An inspection before its photo is attached: the photo is rendered and stored separately. */
export interface DemoInspection {
  fields: InspectionFields;
  /** Minutes after midnight (IST) when the photo was taken; printed on the overlay. */
  capturedAtMinutes: number;
  /** Drawn at the reduced size (./photos.ts): the year before the window. */
  reducedPhoto?: true;
}

export interface InspectionFields {
  recordId: string;
  date: string;
  submittedAt: Date;
  type: InspectionType;
  divisionRailway: Division;
  section: string;
  curveNumber: string;
  line: Line;
  technicianId: string;
  technicianName: string;
  cofValue: string | null;
  location: 'Far End' | 'Near End' | null;
  station1: string;
  station2: string;
  km: string | null;
  pole1: string | null;
  pole2: string | null;
  railwayEngineer: string | null;
  serviceUpdate: ServiceUpdate | null;
  partCategory: string | null;
  partItemName: string | null;
  isMachineWorking: boolean | null;
  greaseDepth: string | null;
}

export interface InspectionPhoto {
  hash: string;
  sizeBytes: number;
  width: number;
  height: number;
}

/** The window of the demo's current state: its schedule, due list and open actions (./history.ts adds the year before). */
export const WINDOW_DAYS = 60;

export function planInspections(commissioned: readonly CommissionedCurve[], today: string): DemoInspection[] {
  const rng = new Random(SEEDS.inspections);
  const windowStart = addDays(today, -WINDOW_DAYS);
  const recordIds = new Set<string>();
  const inspections: DemoInspection[] = [];

  for (const division of DIVISION_REFS) {
    const inDivision = commissioned.filter((c) => c.curve.divisionRailway === division.division);
    // Shuffled, so which curve gets the division's guaranteed CoF reading is not the register's first.
    rng.sample(inDivision, inDivision.length).forEach(({ curve, commissionedOn }, index) => {
      const earliest = commissionedOn >= windowStart ? addDays(commissionedOn, 1) : windowStart;
      // Every division gets at least one CoF reading, so each report type has data everywhere.
      for (const visit of visitsOf(rng, index === 0)) {
        const date = addDays(today, -visit.daysAgo);
        if (date < earliest) continue;
        const technicianId =
          division.technicianIds.length > 1 && rng.chance(0.3)
            ? (division.technicianIds[1] ?? division.technicianIds[0])
            : division.technicianIds[0];
        if (!technicianId) throw new Error(`Division ${division.division} has no technician`);
        inspections.push(
          recordVisit(rng, { curve, date, type: visit.type, technicianId, recordIds }, (r) =>
            visit.type === 'CoF' ? cofReadings(r, curve) : serviceFindings(r, visit.latestService),
          ),
        );
      }
    });
  }
  return inspections.sort((a, b) => a.fields.submittedAt.getTime() - b.fields.submittedAt.getTime());
}

/**
 * One visit's record: the capture minute, record ID and upload time drawn in that order, then
 * what the visit found. Also used by ./history.ts.
 */
export function recordVisit(
  rng: Random,
  visit: { curve: DemoCurve; date: string; type: InspectionType; technicianId: string; recordIds: Set<string> },
  findings: (rng: Random) => Findings,
): DemoInspection {
  const { curve, date } = visit;
  const capturedAtMinutes = rng.int(8 * 60 + 30, 17 * 60 + 15);
  const fields: InspectionFields = {
    recordId: uniqueRecordId(rng, date, visit.recordIds),
    date,
    // Uploads usually follow within minutes; the outbox sends the rest once back in coverage.
    submittedAt: istInstant(date, capturedAtMinutes + (rng.chance(0.85) ? rng.int(1, 12) : rng.int(40, 300))),
    type: visit.type,
    divisionRailway: curve.divisionRailway,
    section: curve.section,
    curveNumber: curve.curveNumber,
    line: curve.line,
    technicianId: visit.technicianId,
    technicianName: technicianName(visit.technicianId),
    station1: curve.station1,
    station2: curve.station2,
    railwayEngineer: curve.sse === PLACEHOLDER_SSE ? null : curve.sse,
    ...findings(rng),
  };
  return { fields, capturedAtMinutes };
}

interface Visit {
  type: InspectionType;
  daysAgo: number;
  /** Only a curve's most recent service can report the machine uninstalled: none follow it. */
  latestService: boolean;
}

function visitsOf(rng: Random, withCof: boolean): Visit[] {
  // A last service 16 days or more ago makes the curve overdue, as happens in the field.
  let daysAgo = rng.int(1, 26);
  const visits: Visit[] = [{ type: 'Service', daysAgo, latestService: true }];
  // Few curves have an older visit in the window: every demo record draws its own photo at the
  // first start, so the demo keeps to about as many records as it needs to tell its story.
  for (const odds of [0.25]) {
    if (!rng.chance(odds)) break;
    daysAgo += rng.int(14, 17);
    if (daysAgo > WINDOW_DAYS) break;
    visits.push({ type: 'Service', daysAgo, latestService: false });
  }
  // Half the machines have had their CoF measured in the window; the rest read "CoF never done".
  if (withCof || rng.chance(0.55)) visits.push({ type: 'CoF', daysAgo: rng.int(2, 50), latestService: false });
  return visits;
}

/** A record ID in the app's form, not yet in `taken` (which it joins). Also used by the seed's scale option (./scale/). */
export function uniqueRecordId(rng: Random, date: string, taken: Set<string>): string {
  for (;;) {
    const id = `INS-${compactDate(date)}-${rng.base36(6)}`;
    if (!taken.has(id)) {
      taken.add(id);
      return id;
    }
  }
}

export type Findings = Pick<
  InspectionFields,
  | 'cofValue'
  | 'location'
  | 'km'
  | 'pole1'
  | 'pole2'
  | 'serviceUpdate'
  | 'partCategory'
  | 'partItemName'
  | 'isMachineWorking'
  | 'greaseDepth'
>;

function cofReadings(rng: Random, curve: DemoCurve): Findings {
  // A well-greased gauge face reads about 0.15-0.25; a dry one climbs towards 0.45, and re-greasing
  // brings it back, so the demo has CoF follow-ups both open and closed.
  return cofReading(rng, curve, rng.chance(0.15) ? rng.float(0.3, 0.46) : rng.float(0.14, 0.25));
}

/** A CoF visit that read `cof` at one end of the curve. Also used by ./history.ts. */
export function cofReading(rng: Random, curve: DemoCurve, cof: number): Findings {
  return {
    cofValue: cof.toFixed(2),
    location: rng.pick(['Far End', 'Near End'] as const),
    km: String(curve.kmFrom),
    pole1: mastNumber(curve.kmFrom, curve.metFrom),
    pole2: mastNumber(curve.kmTo, curve.metTo),
    serviceUpdate: null,
    partCategory: null,
    partItemName: null,
    isMachineWorking: null,
    greaseDepth: null,
  };
}

/** What a Service visit finds, as the upload service stores it. Also used by the seed's scale option (./scale/). */
export function serviceFindings(rng: Random, latestService: boolean): Findings {
  const serviceUpdate = rng.weighted<ServiceUpdate>([
    ['working-fine', 82],
    ['part-broken', 9],
    ['part-stolen', 6],
    ['uninstall', latestService ? 3 : 0],
  ]);
  const part = partFor(rng, serviceUpdate);
  const working = serviceUpdate === 'working-fine' ? rng.chance(0.97) : serviceUpdate === 'part-broken' ? rng.chance(0.35) : false;
  return serviceVisit({ update: serviceUpdate, part, working, depth: serviceUpdate === 'working-fine' ? rng.float(3, 8.5) : rng.float(0.5, 4) });
}

/** A Service visit's findings as stored. Also used by ./history.ts. */
export function serviceVisit(found: {
  update: ServiceUpdate;
  working: boolean;
  depth: number;
  part?: { category: string; itemName: string } | null;
}): Findings {
  return {
    cofValue: null,
    location: null,
    km: null,
    pole1: null,
    pole2: null,
    serviceUpdate: found.update,
    partCategory: found.part?.category ?? null,
    partItemName: found.part?.itemName ?? null,
    isMachineWorking: found.working,
    greaseDepth: found.depth.toFixed(1),
  };
}

export function partFor(rng: Random, update: ServiceUpdate): { category: string; itemName: string } | null {
  if (update !== 'part-broken' && update !== 'part-stolen') return null;
  // Thieves go for what sells: batteries, solar panels, brass fittings.
  const categories =
    update === 'part-stolen'
      ? PART_CATALOGUE.filter((c) => c.category === 'Solar & Battery' || c.category === 'Hoses & Fittings')
      : PART_CATALOGUE;
  const category = rng.pick(categories);
  return { category: category.category, itemName: rng.pick(category.items) };
}

export function toInspectionRow({ fields }: DemoInspection, photo: InspectionPhoto): typeof inspectionLogs.$inferInsert {
  return {
    ...fields,
    clientSubmissionId: null,
    imageUrl: `/api/inspections/${fields.recordId}/image`,
    fileName: `inspection_${fields.recordId}.jpg`,
    imageHash: photo.hash,
    imageSizeBytes: photo.sizeBytes,
    imageWidth: photo.width,
    imageHeight: photo.height,
    imageData: null,
  };
}
