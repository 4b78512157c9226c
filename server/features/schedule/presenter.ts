import { type CofSchedule, type KindSchedule, needsAttention } from '../../../common/rules/schedule.js';
import type { ScheduleEntry, ScheduleSectionSummary } from '../../../common/schemas/schedule.js';
import type { ScheduleRow, SectionCountsRow } from './schedule-sql.js';

/** A row's Service schedule in the rule's shape (for its labels and checks). */
export function serviceOf(row: ScheduleRow): KindSchedule {
  return {
    state: row.serviceState,
    lastDate: row.serviceLastDate,
    dueDate: row.serviceDueDate,
    daysSince: row.serviceDaysSince,
    daysOverdue: row.serviceDaysOverdue,
    daysUntilDue: row.serviceDaysUntilDue,
  };
}

export function cofOf(row: ScheduleRow): CofSchedule {
  return {
    state: row.cofState,
    lastDate: row.cofLastDate,
    dueDate: row.cofDueDate,
    daysSince: row.cofDaysSince,
    daysOverdue: row.cofDaysOverdue,
    daysUntilDue: row.cofDaysUntilDue,
    lastValue: row.cofLastValue,
    high: row.cofHigh,
  };
}

export function toScheduleEntry(row: ScheduleRow): ScheduleEntry {
  return {
    divisionRailway: row.divisionRailway,
    section: row.section,
    curveNumber: row.curveNumber,
    line: row.line,
    hkmCode: row.hkmCode,
    sse: row.sse,
    rolloutMachine: row.rolloutMachine,
    service: {
      state: row.serviceState,
      lastDate: row.serviceLastDate,
      lastTechnician: row.serviceLastTechnician,
      serviceUpdate: row.serviceUpdate,
      dueDate: row.serviceDueDate,
      daysSince: row.serviceDaysSince,
      daysOverdue: row.serviceDaysOverdue,
      daysUntilDue: row.serviceDaysUntilDue,
    },
    cof: {
      state: row.cofState,
      lastDate: row.cofLastDate,
      lastTechnician: row.cofLastTechnician,
      lastValue: row.cofLastValue,
      high: row.cofHigh,
      dueDate: row.cofDueDate,
      daysSince: row.cofDaysSince,
      daysOverdue: row.cofDaysOverdue,
      daysUntilDue: row.cofDaysUntilDue,
    },
  };
}

export function toSectionSummary(row: SectionCountsRow): ScheduleSectionSummary {
  return {
    divisionRailway: row.divisionRailway,
    section: row.section,
    curves: row.curves,
    service: {
      overdue: row.serviceOverdue,
      dueSoon: row.serviceDueSoon,
      never: row.serviceNever,
      inTime: row.serviceInTime,
      notNeeded: row.serviceNotNeeded,
      noMachine: row.serviceNoMachine,
      attention: row.serviceAttention,
    },
    cof: {
      overdue: row.cofOverdue,
      dueSoon: row.cofDueSoon,
      never: row.cofNever,
      inTime: row.cofInTime,
      high: row.cofHigh,
      noMachine: row.cofNoMachine,
      attention: row.cofAttention,
    },
  };
}

/**
 * The counts per division and section of rows read in register order, as
 * countScheduleBySection answers them from the database: the report reads its rows once and
 * counts them, instead of asking the database for the same schedule twice.
 */
export function sectionCountsOf(rows: readonly ScheduleRow[]): SectionCountsRow[] {
  const bySection = new Map<string, SectionCountsRow>();
  for (const row of rows) {
    const key = `${row.divisionRailway}\u0000${row.section}`;
    let counts = bySection.get(key);
    if (!counts) {
      counts = {
        divisionRailway: row.divisionRailway,
        section: row.section,
        curves: 0,
        serviceOverdue: 0,
        serviceDueSoon: 0,
        serviceNever: 0,
        serviceInTime: 0,
        serviceNotNeeded: 0,
        serviceNoMachine: 0,
        serviceAttention: 0,
        cofOverdue: 0,
        cofDueSoon: 0,
        cofNever: 0,
        cofInTime: 0,
        cofHigh: 0,
        cofNoMachine: 0,
        cofAttention: 0,
      };
      bySection.set(key, counts);
    }
    counts.curves += 1;
    const service = serviceOf(row);
    const cof = cofOf(row);
    const stateKey = { overdue: 'Overdue', 'due-soon': 'DueSoon', never: 'Never', 'in-time': 'InTime', 'not-needed': 'NotNeeded', 'no-machine': 'NoMachine' } as const;
    const serviceKey = `service${stateKey[service.state]}` as const;
    counts[serviceKey] += 1;
    // CoF is never 'not-needed': without a machine it is 'no-machine'.
    if (cof.state !== 'not-needed') counts[`cof${stateKey[cof.state]}`] += 1;
    if (cof.high) counts.cofHigh += 1;
    if (needsAttention(service)) counts.serviceAttention += 1;
    if (needsAttention(cof)) counts.cofAttention += 1;
  }
  // Rows in register order give the sections in the database's own order (its collation).
  return [...bySection.values()];
}
