/**
 * What the schedule rule (common/rules/schedule.ts) says of a curve, worked out in the test
 * from the inspection rows it wrote: the tests' expectation the SQL, the API and the report
 * are held to.
 */
import type { InspectionType } from '../../common/constants.js';
import { type CofSchedule, curveSchedule, type KindSchedule } from '../../common/rules/schedule.js';
import type { NewInspectionRow } from '../features/inspections/repository.js';

/**
 * A curve as the records name it: `recordLine` is Up, Down or Single whatever code the register
 * holds. Its records are those filed under its own division.
 */
export interface RecordedCurve {
  divisionRailway: string;
  section: string;
  curveNumber: string;
  recordLine: string;
}

/** The curve's last visit of a kind among `visits` of its division: the latest date, then the latest upload. */
export function lastVisitOf(visits: readonly NewInspectionRow[], curve: RecordedCurve, type: InspectionType): NewInspectionRow | undefined {
  return visits
    .filter(
      (v) =>
        v.type === type &&
        v.divisionRailway === curve.divisionRailway &&
        v.section === curve.section &&
        v.curveNumber === curve.curveNumber &&
        v.line === curve.recordLine,
    )
    .sort((a, b) => (a.date === b.date ? (b.submittedAt?.getTime() ?? 0) - (a.submittedAt?.getTime() ?? 0) : a.date < b.date ? 1 : -1))[0];
}

/**
 * The rule's Service and CoF schedule of the curve today, with the last visits it was made from.
 * `rolloutMachine`: what the test's rollout record of the curve says (rolloutHasMachine).
 */
export function expectedScheduleOf(
  visits: readonly NewInspectionRow[],
  curve: RecordedCurve,
  today: string,
  threshold: number,
  rolloutMachine: boolean,
): { machine: boolean; service: KindSchedule; cof: CofSchedule; lastService: NewInspectionRow | undefined; lastCof: NewInspectionRow | undefined } {
  const lastService = lastVisitOf(visits, curve, 'Service');
  const lastCof = lastVisitOf(visits, curve, 'CoF');
  const schedule = curveSchedule(
    {
      rolloutMachine,
      lastService: lastService ? { date: lastService.date, serviceUpdate: lastService.serviceUpdate ?? null } : null,
      lastCof: lastCof ? { date: lastCof.date, cofValue: lastCof.cofValue === null || lastCof.cofValue === undefined ? null : Number(lastCof.cofValue) } : null,
    },
    today,
    threshold,
  );
  return { ...schedule, lastService, lastCof };
}
