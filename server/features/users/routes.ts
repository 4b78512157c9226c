import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { publicUserSchema } from '../../../common/schemas/auth.js';
import { technicianListResponseSchema } from '../../../common/schemas/reference.js';
import {
  createUserRequestSchema,
  managedUserResponseSchema,
  resetPasswordRequestSchema,
  successResponseSchema,
  userListResponseSchema,
  userParamsSchema,
} from '../../../common/schemas/user.js';
import { access, currentActor, currentUser } from '../../plugins/access.js';
import type { UserService } from './service.js';

export async function userRoutes(app: FastifyInstance, { users }: { users: UserService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/technicians',
    {
      schema: { response: { 200: technicianListResponseSchema } },
      config: { access: access.roles('Admin', 'Client') },
    },
    async (request, reply) => {
      // The original app caches the technicians list for 5 minutes (docs/architecture.md, 'The public contract').
      void reply.header('cache-control', 'private, max-age=300');
      return { technicians: await users.technicians(currentUser(request)) };
    },
  );
  r.get(
    '/api/users',
    {
      schema: { response: { 200: userListResponseSchema } },
      config: { access: access.roles('Admin') },
    },
    async () => ({ users: await users.list() }),
  );
  // Switching an account off ends its sessions at once; its records keep its name. An owner
  // account only by an owner. Both answer the user as the list shows them.
  r.post(
    '/api/users/:employeeId/deactivate',
    {
      schema: { params: userParamsSchema, response: { 200: managedUserResponseSchema } },
      config: { access: access.roles('Admin') },
    },
    async (request) => ({ user: await users.deactivate(currentActor(request), request.params.employeeId) }),
  );
  r.post(
    '/api/users/:employeeId/reactivate',
    {
      schema: { params: userParamsSchema, response: { 200: managedUserResponseSchema } },
      config: { access: access.roles('Admin') },
    },
    async (request) => ({ user: await users.reactivate(currentActor(request), request.params.employeeId) }),
  );
  r.post(
    '/api/users',
    {
      schema: { body: createUserRequestSchema, response: { 201: z.object({ user: publicUserSchema }) } },
      config: { access: access.roles('Admin') },
    },
    async (request, reply) => {
      const user = await users.create(currentActor(request), request.body);
      return reply.status(201).send({ user });
    },
  );
  // Under /api/auth as the spec's client calls it, but it is an admin's user management.
  r.post(
    '/api/auth/reset-password',
    {
      schema: { body: resetPasswordRequestSchema, response: { 200: successResponseSchema } },
      config: { access: access.roles('Admin') },
    },
    async (request) => {
      await users.resetPassword(currentActor(request), request.body);
      return { success: true as const };
    },
  );
}
