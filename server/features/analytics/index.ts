/**
 * Analytics: are the curves greased on time, is friction under control, which machines keep
 * failing, who does the field work. Figures defined in common/rules/analytics.ts, worked out by
 * the database. The app makes the service (createAnalyticsService) because the reports print it too.
 */
import type { FastifyInstance } from 'fastify';
import { analyticsRoutes } from './routes.js';
import type { AnalyticsService } from './service.js';

export { ANALYTICS_TABLES, createAnalyticsService, type AnalyticsService } from './service.js';

export async function analyticsFeature(app: FastifyInstance, { analytics }: { analytics: AnalyticsService }) {
  await app.register(analyticsRoutes, { analytics });
}
