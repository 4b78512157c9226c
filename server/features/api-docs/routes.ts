import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { openApiDocumentSchema } from '../../../common/schemas/api-docs.js';
import { JsonBody, sendJsonBody } from '../../json-body.js';
import { access } from '../../plugins/access.js';

/**
 * GET /api/openapi.json. The document is made once, at the first request for it (every route is
 * registered by then), and every request after it is served from those bytes (gzip and ETag
 * made once too). Not at start: making it costs about 0.2-0.3 s of CPU (Zod to JSON Schema for
 * every route, then swagger), which every app start, each test file's included, would pay for a
 * page few people open.
 * Admins only, like the reference page that reads it: it maps every route, owner and file
 * tools included, which no field user or client needs and an integrator gets from an Admin.
 */
export async function apiDocsRoutes(app: FastifyInstance) {
  let document: JsonBody | undefined;

  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/openapi.json',
    { schema: { response: { 200: openApiDocumentSchema } }, config: { access: access.roles('Admin') } },
    async (request, reply) => {
      document ??= JsonBody.of(app.swagger());
      return sendJsonBody(request, reply, document, { revalidate: true });
    },
  );
}
