/** User Management: the accounts an Admin creates, resets and switches off. */
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client.js';
import { userRoutes } from './routes.js';
import { createUserService } from './service.js';

export { createUserService, type UserService } from './service.js';

export interface UsersFeatureOptions {
  db: Db;
  isOwner(employeeId: string): boolean;
}

export async function usersFeature(app: FastifyInstance, { db, isOwner }: UsersFeatureOptions) {
  await app.register(userRoutes, { users: createUserService({ db, isOwner }) });
}
