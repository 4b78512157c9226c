import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { divisionScope } from '../../../common/rules/division-scope.js';
import { stationListQuerySchema, stationListResponseSchema } from '../../../common/schemas/reference.js';
import {
  stationDeleteResponseSchema,
  stationIdParamsSchema,
  stationInputSchema,
  stationRegisterQuerySchema,
  stationRegisterResponseSchema,
  stationResponseSchema,
} from '../../../common/schemas/register.js';
import { AppError } from '../../app-error.js';
import type { Db } from '../../db/client.js';
import { access, currentActor, currentUser } from '../../plugins/access.js';
import { listStationsOfSection } from './repository.js';
import type { StationService } from './service.js';

/** The spec's edit body repeats the id; one that names another station is a mistake, not a move. */
function withoutId<T extends { id?: unknown }>(body: T, pathId?: number): Omit<T, 'id'> {
  const { id, ...values } = body;
  if (id !== undefined && id !== null && id !== '' && Number(id) !== pathId) {
    throw new AppError('VALIDATION_FAILED', `id: the body's id must be the path's (${pathId ?? 'none'})`, {
      fields: { id: `the body's id must be the path's (${pathId ?? 'none'})` },
    });
  }
  return values;
}

export async function stationRoutes(app: FastifyInstance, { db, stations }: { db: Db; stations: StationService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/stations',
    {
      schema: { querystring: stationListQuerySchema, response: { 200: stationListResponseSchema } },
      config: { access: access.signedIn },
    },
    async (request) => {
      const scope = divisionScope(currentUser(request), undefined);
      if (scope.none) return { stations: [] };
      return { stations: await listStationsOfSection(db, request.query.section, scope.division) };
    },
  );

  r.get(
    '/api/admin/stations',
    {
      schema: { querystring: stationRegisterQuerySchema, response: { 200: stationRegisterResponseSchema } },
      config: { access: access.roles('Admin') },
    },
    async (request) => stations.list(request.query),
  );

  r.post(
    '/api/stations',
    {
      schema: { body: stationInputSchema, response: { 201: stationResponseSchema } },
      config: { access: access.roles('Admin') },
    },
    async (request, reply) => {
      const station = await stations.create(currentActor(request), withoutId(request.body));
      return reply.status(201).send({ station });
    },
  );

  r.put(
    '/api/admin/stations/:id',
    {
      schema: { params: stationIdParamsSchema, body: stationInputSchema, response: { 200: stationResponseSchema } },
      config: { access: access.roles('Admin') },
    },
    async (request) => ({
      station: await stations.update(currentActor(request), request.params.id, withoutId(request.body, request.params.id)),
    }),
  );

  r.delete(
    '/api/stations/:id',
    {
      schema: { params: stationIdParamsSchema, response: { 200: stationDeleteResponseSchema } },
      config: { access: access.roles('Admin') },
    },
    async (request) => ({ deleted: true as const, station: await stations.remove(currentActor(request), request.params.id) }),
  );
}
