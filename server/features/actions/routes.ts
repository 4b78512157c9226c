import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  actionCountsQuerySchema,
  actionCountsResponseSchema,
  actionIdParamsSchema,
  actionListQuerySchema,
  actionListResponseSchema,
  actionNoteBodySchema,
  actionSchema,
} from '../../../common/schemas/actions.js';
import { sendJsonBody } from '../../json-body.js';
import { access, currentActor, currentUser } from '../../plugins/access.js';
import type { ActionService } from './service.js';

export async function actionRoutes(app: FastifyInstance, { actions }: { actions: ActionService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  // Technicians read them too: the open actions of their sections head their due list, offline as well.
  // Answered from the cached bytes (no-store: they change with every action written).
  r.get('/api/actions', { schema: { querystring: actionListQuerySchema, response: { 200: actionListResponseSchema } }, config: { access: access.signedIn } }, async (request, reply) =>
    sendJsonBody(request, reply, await actions.list(currentUser(request), request.query)),
  );

  r.get('/api/actions/counts', { schema: { querystring: actionCountsQuerySchema, response: { 200: actionCountsResponseSchema } }, config: { access: access.roles('Admin', 'Client') } }, async (request, reply) =>
    sendJsonBody(request, reply, await actions.countsByDivision(currentUser(request), request.query.division)),
  );

  r.post(
    '/api/actions/:id/close',
    { schema: { params: actionIdParamsSchema, body: actionNoteBodySchema, response: { 200: actionSchema } }, config: { access: access.roles('Admin') } },
    async (request) => actions.close(currentActor(request), request.params.id, request.body.note),
  );

  r.post(
    '/api/actions/:id/reopen',
    { schema: { params: actionIdParamsSchema, body: actionNoteBodySchema, response: { 200: actionSchema } }, config: { access: access.roles('Admin') } },
    async (request) => actions.reopen(currentActor(request), request.params.id, request.body.note),
  );
}
