import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  partCategoriesResponseSchema,
  partListQuerySchema,
  partListResponseSchema,
} from '../../../common/schemas/reference.js';
import type { Db } from '../../db/client.js';
import { access } from '../../plugins/access.js';
import { listPartCategories, listPartsOfCategory } from './repository.js';

/** The machine-parts catalogue, read when a technician reports a broken or stolen part. */
export async function partRoutes(app: FastifyInstance, { db }: { db: Db }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/machine-parts/categories',
    { schema: { response: { 200: partCategoriesResponseSchema } }, config: { access: access.signedIn } },
    async () => ({ categories: await listPartCategories(db) }),
  );
  r.get(
    '/api/machine-parts',
    {
      schema: { querystring: partListQuerySchema, response: { 200: partListResponseSchema } },
      config: { access: access.signedIn },
    },
    async (request) => ({ parts: await listPartsOfCategory(db, request.query.category) }),
  );
}
