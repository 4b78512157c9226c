import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { divisionScope } from '../../../common/rules/division-scope.js';
import { stationListQuerySchema, stationListResponseSchema } from '../../../common/schemas/reference.js';
import type { Db } from '../../db/client.js';
import { access, currentUser } from '../../plugins/access.js';
import { listStationsOfSection } from './repository.js';

export async function stationRoutes(app: FastifyInstance, { db }: { db: Db }) {
  app.withTypeProvider<ZodTypeProvider>().get(
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
}
