import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { analyticsDashboardSchema, analyticsQuerySchema, analyticsSummarySchema } from '../../../common/schemas/analytics.js';
import { access, currentUser } from '../../plugins/access.js';
import type { AnalyticsService } from './service.js';

export async function analyticsRoutes(app: FastifyInstance, { analytics }: { analytics: AnalyticsService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const readers = { access: access.roles('Admin', 'Client') };

  // For integrations as much as for the view: the range's headline figures.
  r.get(
    '/api/analytics/summary',
    { schema: { querystring: analyticsQuerySchema, response: { 200: analyticsSummarySchema } }, config: readers },
    async (request, reply) => {
      void reply.header('cache-control', 'private, no-cache');
      return analytics.summary(currentUser(request), request.query);
    },
  );

  r.get(
    '/api/analytics/dashboard',
    { schema: { querystring: analyticsQuerySchema, response: { 200: analyticsDashboardSchema } }, config: readers },
    async (request, reply) => {
      void reply.header('cache-control', 'private, no-cache');
      return analytics.dashboard(currentUser(request), request.query);
    },
  );
}
