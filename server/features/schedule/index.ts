/**
 * The maintenance schedule: the rule of common/rules/schedule.ts worked out by the database.
 * The app makes the service (createScheduleService) because the reports read it too.
 */
import type { FastifyInstance } from 'fastify';
import { scheduleRoutes } from './routes.js';
import type { ScheduleService } from './service.js';

export { createScheduleService, type ScheduleService } from './service.js';
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

export async function scheduleFeature(app: FastifyInstance, { schedule }: { schedule: ScheduleService }) {
  await app.register(scheduleRoutes, { schedule });
}
