import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { curveListQuerySchema, curveListResponseSchema } from '../../../common/schemas/curve.js';
import { access, currentUser } from '../../plugins/access.js';
import type { CurveService } from './service.js';

export async function curveRoutes(app: FastifyInstance, { curves }: { curves: CurveService }) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/consolidated-curves',
    {
      schema: { querystring: curveListQuerySchema, response: { 200: curveListResponseSchema } },
      config: { access: access.signedIn },
    },
    async (request) => curves.list(currentUser(request), request.query),
  );
}
