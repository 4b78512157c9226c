import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { analyticsDashboardSchema, analyticsQuerySchema, analyticsSummarySchema } from '../../../common/schemas/analytics.js';
import { sendJsonBody } from '../../json-body.js';
import { access, currentUser } from '../../plugins/access.js';
import type { AnalyticsService } from './service.js';

export async function analyticsRoutes(app: FastifyInstance, { analytics }: { analytics: AnalyticsService }) {
  // Both answered from the cached bytes, checked against their response schemas when made (a Buffer skips
  // the route's serializer: the schemas here describe the answer for the API document).
  const r = app.withTypeProvider<ZodTypeProvider>();
  const readers = { access: access.roles('Admin', 'Client') };

  // For integrations as much as for the view: the range's headline figures.
  r.get(
    '/api/analytics/summary',
    { schema: { querystring: analyticsQuerySchema, response: { 200: analyticsSummarySchema } }, config: readers },
    async (request, reply) => sendJsonBody(request, reply, await analytics.summary(currentUser(request), request.query), { cacheControl: 'private, no-cache' }),
  );

  r.get(
    '/api/analytics/dashboard',
    { schema: { querystring: analyticsQuerySchema, response: { 200: analyticsDashboardSchema } }, config: readers },
    async (request, reply) => sendJsonBody(request, reply, await analytics.dashboard(currentUser(request), request.query), { cacheControl: 'private, no-cache' }),
  );
}
