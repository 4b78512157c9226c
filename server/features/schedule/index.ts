/** The maintenance schedule: the rule of common/rules/schedule.ts worked out by the database. */
export { createScheduleService, type ScheduleService } from './service.js';
export { scheduleRoutes } from './routes.js';
export {
  countScheduleBySection,
  listSchedule,
  scopeHasCurves,
  type ScheduleContext,
  type ScheduleRow,
  type ScheduleScope,
  type SectionCountsRow,
} from './schedule-sql.js';
export { cofOf, sectionCountsOf, serviceOf, toSectionSummary } from './presenter.js';
