import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { scheduleQuerySchema, scheduleResponseSchema, scheduleSummaryQuerySchema, scheduleSummaryResponseSchema } from '../../../common/schemas/schedule.js';
import { sendJsonBody } from '../../json-body.js';
import { access, currentUser } from '../../plugins/access.js';
import type { ScheduleService } from './service.js';

export async function scheduleRoutes(app: FastifyInstance, { schedule }: { schedule: ScheduleService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  // Technicians read it too: it is their due list, kept on the phone for offline use.
  r.get(
    '/api/schedule',
    { schema: { querystring: scheduleQuerySchema, response: { 200: scheduleResponseSchema } }, config: { access: access.signedIn } },
    async (request, reply) => sendJsonBody(request, reply, await schedule.list(currentUser(request), request.query), { revalidate: true }),
  );

  r.get(
    '/api/schedule/summary',
    { schema: { querystring: scheduleSummaryQuerySchema, response: { 200: scheduleSummaryResponseSchema } }, config: { access: access.roles('Admin', 'Client') } },
    async (request, reply) => {
      void reply.header('cache-control', 'no-store');
      return schedule.summary(currentUser(request), request.query);
    },
  );
}
