import { describe, expect, it } from 'vitest';
import { addDays } from '../../../../common/rules/dates.js';
import { COF_HIGH_LABEL, type KindSchedule, scheduleLabel } from '../../../../common/rules/schedule.js';
import { scheduleResponseSchema } from '../../../../common/schemas/schedule.js';
import { CURVES, scheduleFor } from '../inspection-flow/entry/test-fixtures.js';
import { buildCurveSchedules, curveKey, dueItems, type LocalVisit, statusText } from './curve-schedule.js';

const TODAY = '2026-11-23';
const response = scheduleFor(CURVES, TODAY);
const curve15 = curveKey('RTM-NAD', '15', 'DN');

function waiting(overrides: Partial<LocalVisit>): LocalVisit {
  return { type: 'Service', section: 'RTM-NAD', curveNumber: '15', line: 'Down', date: TODAY, serviceUpdate: 'working-fine', cofValue: null, partCategory: null, partItemName: null, isMachineWorking: true, ...overrides };
}

describe('the due states on the phone', () => {
  it("takes the server's last visits when nothing waits in the outbox", () => {
    const schedule = buildCurveSchedules(response, [], TODAY).get(curve15);
    expect(schedule && statusText('Service', schedule)).toBe('Service overdue 6 d');
  });

  it('moves on with the days, offline', () => {
    const schedule = buildCurveSchedules(response, [], addDays(TODAY, 4)).get(curve15);
    expect(schedule && statusText('Service', schedule)).toBe('Service overdue 10 d');
  });

  it('counts a visit still in the outbox: the curve leaves the due list before it is sent', () => {
    const schedules = buildCurveSchedules(response, [waiting({})], TODAY);
    const schedule = schedules.get(curve15);
    expect(schedule?.service).toMatchObject({ state: 'in-time', lastDate: TODAY, daysUntilDue: 15 });
    expect(dueItems(schedules.values(), new Set(['RTM-NAD'])).some((i) => i.schedule === schedule && i.kind === 'Service')).toBe(false);
  });

  it('keeps the later of the two visits, and a waiting CoF reading decides CoF high', () => {
    const older = buildCurveSchedules(response, [waiting({ date: addDays(TODAY, -30) })], TODAY).get(curve15);
    expect(older?.service).toMatchObject({ state: 'overdue', daysOverdue: 6 });
    const up12 = curveKey('RTM-NAD', '12', 'UP');
    expect(buildCurveSchedules(response, [], TODAY).get(up12)?.cof.high).toBe(true);
    const measured = buildCurveSchedules(response, [waiting({ type: 'CoF', curveNumber: '12', line: 'Up', cofValue: '0.21', serviceUpdate: null })], TODAY).get(up12);
    expect(measured?.cof).toMatchObject({ high: false, lastValue: 0.21, state: 'in-time' });
  });

  it('lists the most overdue first, then the never visited, for the chosen sections only', () => {
    const items = dueItems(buildCurveSchedules(response, [], TODAY).values(), new Set(['RTM-NAD']));
    expect(items[0]?.schedule.entry.curveNumber).toBe('15');
    expect(items.every((i) => i.schedule.entry.section === 'RTM-NAD')).toBe(true);
    expect(dueItems(buildCurveSchedules(response, [], TODAY).values(), new Set())).toEqual([]);
  });

  it('shows a curve without a machine as "No machine" and never lists it, until a Service visit in the outbox proves one', () => {
    const curve20 = curveKey('RTM-NAD', '20', 'Up');
    const schedules = buildCurveSchedules(response, [], TODAY);
    const none = schedules.get(curve20);
    expect(none?.service.state).toBe('no-machine');
    expect(none && statusText('Service', none)).toBe('No machine');
    expect(none && statusText('CoF', none)).toBe('No machine');
    expect(dueItems(schedules.values(), new Set(['RTM-NAD'])).some((i) => i.schedule === none)).toBe(false);
    // A CoF reading alone proves no machine.
    const measured = buildCurveSchedules(response, [waiting({ type: 'CoF', curveNumber: '20', line: 'Up', cofValue: '0.40', serviceUpdate: null })], TODAY).get(curve20);
    expect(measured?.cof).toMatchObject({ state: 'no-machine', high: false });
    // A Service visit waiting in the outbox puts it on both schedules at once.
    const serviced = buildCurveSchedules(response, [waiting({ curveNumber: '20', line: 'Up' })], TODAY).get(curve20);
    expect(serviced?.service).toMatchObject({ state: 'in-time', daysUntilDue: 15 });
    expect(serviced?.cof.state).toBe('never');
  });

  it("takes a curve off both schedules at a waiting 'Uninstall the machine', whatever the rollout says", () => {
    const schedule = buildCurveSchedules(response, [waiting({ serviceUpdate: 'uninstall' })], TODAY).get(curve15);
    expect(schedule?.service.state).toBe('not-needed');
    expect(schedule?.cof.state).toBe('no-machine');
    expect(dueItems([schedule].filter((s) => s !== undefined), new Set(['RTM-NAD']))).toEqual([]);
  });

  it('does not read a schedule kept by an older version, which did not say whether a curve has a machine', () => {
    const { rolloutMachine: _dropped, ...older } = response.curves[0] ?? { rolloutMachine: true };
    // The phone's kept copy is parsed by the same schema: an older shape is refused, never read as "no machine".
    expect(scheduleResponseSchema.safeParse({ ...response, curves: [older] }).success).toBe(false);
  });
});

describe('the due states in words', () => {
  const base = { lastDate: null, dueDate: null, daysSince: null, daysOverdue: 0, daysUntilDue: null };
  const cases: KindSchedule[] = [
    { ...base, state: 'overdue', daysOverdue: 6 },
    { ...base, state: 'due-soon', daysUntilDue: 0 },
    { ...base, state: 'due-soon', daysUntilDue: 2 },
    { ...base, state: 'never' },
    { ...base, state: 'not-needed' },
    { ...base, state: 'no-machine' },
    { ...base, state: 'in-time', daysUntilDue: 20 },
  ];

  it("says in English exactly what the shared rule's labels (the reports') say", () => {
    const entry = response.curves[0];
    if (entry === undefined) throw new Error('the fixture has curves');
    for (const kindSchedule of cases) {
      const schedule = { entry, service: kindSchedule, cof: { ...kindSchedule, lastValue: null, high: false } };
      expect(statusText('Service', schedule)).toBe(scheduleLabel('Service', kindSchedule));
      expect(statusText('CoF', schedule)).toBe(scheduleLabel('CoF', kindSchedule));
      expect(statusText('CoF', { ...schedule, cof: { ...schedule.cof, high: true } })).toBe(`${scheduleLabel('CoF', kindSchedule)} · ${COF_HIGH_LABEL}`);
    }
  });
});
