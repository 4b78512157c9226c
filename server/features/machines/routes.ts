import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  machineFiltersQuerySchema,
  machineFiltersResponseSchema,
  machineProgressQuerySchema,
  machineProgressResponseSchema,
  machineStatsQuerySchema,
  machineStatsResponseSchema,
  machineSummariesResponseSchema,
  machineSummaryQuerySchema,
  machineSummarySchema,
  machineSummaryUpdateSchema,
} from '../../../common/schemas/machines.js';
import { sendJsonBody } from '../../json-body.js';
import { access, currentActor, currentUser } from '../../plugins/access.js';
import type { MachineService } from './service.js';

/** The machine dashboard (Admin, Client), the reports landing's cards, and the owner's figures (docs/functional-requirements.md, 'Machine dashboard (/machine-dashboard)'). */
export async function machineRoutes(app: FastifyInstance, { machines }: { machines: MachineService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const readers = { access: access.roles('Admin', 'Client') };

  // Rollout figures change with every edit: the spec never caches them, nor may a browser.
  // (This plugin's hooks apply to its own routes only.)
  app.addHook('onSend', async (_request, reply) => {
    void reply.header('cache-control', 'no-store');
  });

  // Answered from the cached bytes, checked against machineFiltersResponseSchema / machineStatsResponseSchema when made.
  r.get('/api/machine-filters', { schema: { querystring: machineFiltersQuerySchema, response: { 200: machineFiltersResponseSchema } }, config: readers }, async (request, reply) =>
    sendJsonBody(request, reply, await machines.filtersBody(currentUser(request), request.query)),
  );

  r.get('/api/machine-stats', { schema: { querystring: machineStatsQuerySchema, response: { 200: machineStatsResponseSchema } }, config: readers }, async (request, reply) =>
    sendJsonBody(request, reply, await machines.statsBody(currentUser(request), request.query)),
  );

  r.get(
    '/api/machine-progress',
    { schema: { querystring: machineProgressQuerySchema, response: { 200: machineProgressResponseSchema } }, config: readers },
    async (request) => machines.progress(currentUser(request), request.query),
  );

  r.get(
    '/api/machine-dashboard-summaries',
    { schema: { response: { 200: machineSummariesResponseSchema } }, config: { access: access.owner } },
    async () => ({ summaries: await machines.summaries() }),
  );

  r.get(
    '/api/machine-dashboard-summary',
    { schema: { querystring: machineSummaryQuerySchema, response: { 200: machineSummarySchema } }, config: { access: access.owner } },
    async (request) => machines.summary(request.query.division),
  );

  r.put(
    '/api/machine-dashboard-summary',
    { schema: { body: machineSummaryUpdateSchema, response: { 200: machineSummarySchema } }, config: { access: access.owner } },
    async (request) => machines.updateSummary(currentActor(request), request.body),
  );
}
