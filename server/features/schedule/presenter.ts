import type { CofSchedule, KindSchedule } from '../../../common/rules/schedule.js';
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
      attention: row.serviceAttention,
    },
    cof: {
      overdue: row.cofOverdue,
      dueSoon: row.cofDueSoon,
      never: row.cofNever,
      inTime: row.cofInTime,
      high: row.cofHigh,
      attention: row.cofAttention,
    },
  };
}
