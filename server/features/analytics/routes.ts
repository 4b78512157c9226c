import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { analyticsQuerySchema } from '../../../common/schemas/analytics.js';
import { sendJsonBody } from '../../json-body.js';
import { access, currentUser } from '../../plugins/access.js';
import type { AnalyticsService } from './service.js';

export async function analyticsRoutes(app: FastifyInstance, { analytics }: { analytics: AnalyticsService }) {
  // Both answered from the cached bytes, checked against analyticsSummarySchema / analyticsDashboardSchema when made.
  const r = app.withTypeProvider<ZodTypeProvider>();
  const readers = { access: access.roles('Admin', 'Client') };

  // For integrations as much as for the view: the range's headline figures.
  r.get(
    '/api/analytics/summary',
    { schema: { querystring: analyticsQuerySchema }, config: readers },
    async (request, reply) => sendJsonBody(request, reply, await analytics.summary(currentUser(request), request.query), { cacheControl: 'private, no-cache' }),
  );

  r.get(
    '/api/analytics/dashboard',
    { schema: { querystring: analyticsQuerySchema }, config: readers },
    async (request, reply) => sendJsonBody(request, reply, await analytics.dashboard(currentUser(request), request.query), { cacheControl: 'private, no-cache' }),
  );
}
