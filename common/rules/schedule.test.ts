import { describe, expect, it } from 'vitest';
import { dateInTimeZone } from './dates.js';
import { rolloutHasMachine } from './rollout.js';
import {
  COF_HIGH_LABEL,
  cofSchedule,
  curveSchedule,
  hasMachine,
  NO_MACHINE_LABEL,
  needsAttention,
  scheduleLabel,
  serviceSchedule,
  urgency,
} from './schedule.js';

const TODAY = '2026-11-23';
/** A curve's Service schedule from its last Service alone (no rollout record): the visit proves the machine. */
const service = (date: string, serviceUpdate: string | null = 'working-fine') =>
  curveSchedule({ rolloutMachine: false, lastService: { date, serviceUpdate }, lastCof: null }, TODAY, 0.25).service;
/** A CoF schedule of a curve with a machine. */
const cof = (date: string, cofValue: number | null = 0.2, threshold = 0.25) => cofSchedule({ date, cofValue }, TODAY, threshold, true);

describe('Service every 15 days', () => {
  it('is due today on day 15 and overdue by 1 day on day 16', () => {
    expect(service('2026-11-08')).toMatchObject({ state: 'due-soon', dueDate: '2026-11-23', daysSince: 15, daysUntilDue: 0, daysOverdue: 0 });
    expect(service('2026-11-07')).toMatchObject({ state: 'overdue', dueDate: '2026-11-22', daysSince: 16, daysUntilDue: null, daysOverdue: 1 });
    expect(scheduleLabel('Service', service('2026-11-08'))).toBe('Service due today');
    expect(scheduleLabel('Service', service('2026-11-07'))).toBe('Service overdue 1 d');
  });

  it('is due soon within 3 days and in time before that', () => {
    expect(service('2026-11-11')).toMatchObject({ state: 'due-soon', daysUntilDue: 3 });
    expect(scheduleLabel('Service', service('2026-11-11'))).toBe('Service due in 3 d');
    expect(service('2026-11-12')).toMatchObject({ state: 'in-time', daysUntilDue: 4, dueDate: '2026-11-27' });
    expect(service(TODAY)).toMatchObject({ state: 'in-time', daysSince: 0, daysUntilDue: 15 });
  });

  it('counts calendar days across a month and a year end', () => {
    expect(serviceSchedule({ date: '2026-12-20', serviceUpdate: null }, '2027-01-10', true)).toMatchObject({
      state: 'overdue',
      dueDate: '2027-01-04',
      daysOverdue: 6,
    });
    expect(scheduleLabel('Service', serviceSchedule({ date: '2026-12-20', serviceUpdate: null }, '2027-01-10', true))).toBe('Service overdue 6 d');
  });

  it('never visited is "never done" and needs attention', () => {
    const never = serviceSchedule(null, TODAY, true);
    expect(never).toEqual({ state: 'never', lastDate: null, dueDate: null, daysSince: null, daysOverdue: 0, daysUntilDue: null });
    expect(needsAttention(never)).toBe(true);
    expect(scheduleLabel('Service', never)).toBe('Service never done');
  });

  it("needs no service after 'Uninstall the machine' until a later visit says otherwise", () => {
    const uninstalled = service('2026-09-01', 'uninstall');
    expect(uninstalled).toMatchObject({ state: 'not-needed', lastDate: '2026-09-01', dueDate: null, daysOverdue: 0 });
    expect(needsAttention(uninstalled)).toBe(false);
    expect(scheduleLabel('Service', uninstalled)).toBe('Machine uninstalled');
    // The later visit is the last one: the curve is back on the schedule from its date.
    expect(service('2026-10-01', 'working-fine')).toMatchObject({ state: 'overdue', daysOverdue: 38 });
  });
});

describe('CoF every 30 days', () => {
  it('is due on day 30 and overdue on day 31', () => {
    expect(cof('2026-10-24')).toMatchObject({ state: 'due-soon', dueDate: '2026-11-23', daysUntilDue: 0 });
    expect(cof('2026-10-23')).toMatchObject({ state: 'overdue', daysOverdue: 1 });
    expect(scheduleLabel('CoF', cof('2026-11-21'))).toBe('CoF in time, 28 d left');
    expect(scheduleLabel('CoF', cof('2026-10-26'))).toBe('CoF due in 2 d');
  });

  it('marks a reading above the threshold, not one at it', () => {
    expect(cof(TODAY, 0.25)).toMatchObject({ high: false, lastValue: 0.25, state: 'in-time' });
    expect(needsAttention(cof(TODAY, 0.25))).toBe(false);
    expect(cof(TODAY, 0.26)).toMatchObject({ high: true, lastValue: 0.26, state: 'in-time' });
    expect(needsAttention(cof(TODAY, 0.26))).toBe(true);
    expect(cof(TODAY, 0.3, 0.35).high).toBe(false);
    expect(COF_HIGH_LABEL).toBe('CoF high: follow up');
  });

  it('a later reading within the threshold clears the follow-up (the rule reads the last reading)', () => {
    expect(cof('2026-11-20', 0.22).high).toBe(false);
    expect(cofSchedule(null, TODAY, 0.25, true)).toMatchObject({ state: 'never', high: false, lastValue: null });
  });
});

describe('business dates', () => {
  it('a visit late at night in India is on its Indian date while the server clock is UTC', () => {
    // 23:30 IST on 8 November is 18:00 UTC the same day; 00:30 IST on 24 November is still
    // 23 November in UTC. The railway's day decides what is due.
    const lateVisit = dateInTimeZone(new Date('2026-11-08T18:00:00Z'), 'Asia/Kolkata');
    expect(lateVisit).toBe('2026-11-08');
    const now = new Date('2026-11-23T19:00:00Z');
    expect(dateInTimeZone(now, 'UTC')).toBe('2026-11-23');
    const today = dateInTimeZone(now, 'Asia/Kolkata');
    expect(today).toBe('2026-11-24');
    expect(serviceSchedule({ date: lateVisit, serviceUpdate: null }, today, true)).toMatchObject({ state: 'overdue', daysOverdue: 1 });
    // Read with the server's UTC date, the same visit would wrongly look due today.
    expect(serviceSchedule({ date: lateVisit, serviceUpdate: null }, '2026-11-23', true).state).toBe('due-soon');
  });

  it('a visit just after midnight in India belongs to the new day', () => {
    expect(dateInTimeZone(new Date('2026-11-08T18:45:00Z'), 'Asia/Kolkata')).toBe('2026-11-09');
  });
});

describe('urgency orders the due list', () => {
  it('puts the most overdue first, then the soonest due, the never visited, in time, uninstalled, no machine', () => {
    const ordered = [
      service('2026-10-01'),
      service('2026-11-01'),
      service('2026-11-08'),
      service('2026-11-10'),
      serviceSchedule(null, TODAY, true),
      service('2026-11-20'),
      service('2026-11-22', 'uninstall'),
      serviceSchedule(null, TODAY, false),
    ];
    const ranks = ordered.map(urgency);
    expect([...ranks].sort((a, b) => a - b)).toEqual(ranks);
    expect(new Set(ranks).size).toBe(ranks.length);
  });
});

describe('the schedule covers curves that have a lubricator', () => {
  const installedOn = (machine: string | null, commissioned: string | null) => rolloutHasMachine({ machine, commissioned });
  const scheduleOf = (rolloutMachine: boolean, lastService: { date: string; serviceUpdate: string | null } | null, lastCof: { date: string; cofValue: number | null } | null = null) =>
    curveSchedule({ rolloutMachine, lastService, lastCof }, TODAY, 0.25);

  it('reads the rollout record: installed or commissioned is a machine, a foundation alone is not', () => {
    expect(installedOn('14.03.2026', 'Pending')).toBe(true);
    expect(installedOn('Done', null)).toBe(true);
    // Commissioned though the sheet never filled in the installation: the machine is there.
    expect(installedOn('Pending', '02.04.2026')).toBe(true);
    expect(installedOn(null, 'Completed')).toBe(true);
    expect(installedOn('Pending', 'Pending')).toBe(false);
    expect(installedOn(null, null)).toBe(false);
    expect(installedOn('31.02.2026', 'tbd')).toBe(false);
  });

  it('puts a never-visited curve with a machine on the schedule as never done', () => {
    const installed = scheduleOf(true, null);
    expect(installed.machine).toBe(true);
    expect(installed.service).toMatchObject({ state: 'never' });
    expect(installed.cof).toMatchObject({ state: 'never', high: false });
    expect(needsAttention(installed.service)).toBe(true);
    expect(needsAttention(installed.cof)).toBe(true);
  });

  it('shows a curve with only a foundation, or no rollout record, as "No machine", never needing attention', () => {
    const none = scheduleOf(false, null);
    expect(none.machine).toBe(false);
    expect(none.service).toEqual({ state: 'no-machine', lastDate: null, dueDate: null, daysSince: null, daysOverdue: 0, daysUntilDue: null });
    expect(none.cof).toEqual({ state: 'no-machine', lastDate: null, dueDate: null, daysSince: null, daysOverdue: 0, daysUntilDue: null, lastValue: null, high: false });
    expect(needsAttention(none.service)).toBe(false);
    expect(needsAttention(none.cof)).toBe(false);
    expect(scheduleLabel('Service', none.service)).toBe(NO_MACHINE_LABEL);
    expect(scheduleLabel('CoF', none.cof)).toBe('No machine');
    // Its urgency sorts after every other state, the uninstalled included.
    expect(urgency(none.service)).toBeGreaterThan(urgency(service('2026-11-22', 'uninstall')));
    expect(urgency(none.service)).toBeGreaterThan(urgency(service(TODAY)));
  });

  it('a CoF reading alone proves no machine: kept as the last visit, not followed up even when high', () => {
    const measured = scheduleOf(false, null, { date: '2026-09-01', cofValue: 0.4 });
    expect(measured.machine).toBe(false);
    expect(measured.cof).toMatchObject({ state: 'no-machine', lastDate: '2026-09-01', daysSince: 83, dueDate: null, daysOverdue: 0, lastValue: 0.4, high: false });
    expect(needsAttention(measured.cof)).toBe(false);
  });

  it('a Service visit without a rollout record proves a machine', () => {
    const visited = scheduleOf(false, { date: '2026-11-01', serviceUpdate: 'part-broken' }, { date: '2026-11-20', cofValue: 0.3 });
    expect(visited.machine).toBe(true);
    expect(visited.service).toMatchObject({ state: 'overdue', daysOverdue: 7 });
    expect(visited.cof).toMatchObject({ state: 'in-time', high: true });
    expect(hasMachine(false, { date: '2026-11-01', serviceUpdate: null })).toBe(true);
  });

  it("an 'Uninstall the machine' visit takes the curve off both schedules, whatever the rollout says", () => {
    const uninstalled = scheduleOf(true, { date: '2026-10-01', serviceUpdate: 'uninstall' }, { date: '2026-09-01', cofValue: 0.4 });
    expect(uninstalled.machine).toBe(false);
    expect(uninstalled.service).toMatchObject({ state: 'not-needed', lastDate: '2026-10-01', dueDate: null });
    expect(scheduleLabel('Service', uninstalled.service)).toBe('Machine uninstalled');
    expect(uninstalled.cof).toMatchObject({ state: 'no-machine', lastDate: '2026-09-01', dueDate: null, high: false });
    expect(needsAttention(uninstalled.service)).toBe(false);
    expect(needsAttention(uninstalled.cof)).toBe(false);
  });

  it('a later Service visit after the uninstall puts the curve back on both schedules', () => {
    const back = scheduleOf(false, { date: '2026-11-20', serviceUpdate: 'working-fine' }, { date: '2026-09-01', cofValue: 0.2 });
    expect(back.machine).toBe(true);
    expect(back.service).toMatchObject({ state: 'in-time', daysUntilDue: 12 });
    expect(back.cof).toMatchObject({ state: 'overdue', daysOverdue: 53 });
  });
});
