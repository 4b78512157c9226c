import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { SESSION_COOKIE } from '../../../common/constants.js';
import {
  demoAccountsResponseSchema,
  loginRequestSchema,
  loginResponseSchema,
} from '../../../common/schemas/auth.js';
import { changePasswordRequestSchema } from '../../../common/schemas/user-password.js';
import { AppError } from '../../app-error.js';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from '../../db/seed/demo-accounts.js';
import { access, clearSessionCookie, currentActor, currentUser, setSessionCookie } from '../../plugins/access.js';
import type { AuthService } from './service.js';

export interface AuthRoutesOptions {
  auth: AuthService;
  demo: boolean;
}

export async function authRoutes(app: FastifyInstance, { auth, demo }: AuthRoutesOptions) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/api/auth/login',
    {
      schema: { body: loginRequestSchema, response: { 200: loginResponseSchema } },
      config: { access: access.public },
    },
    async (request, reply) => {
      const { token, expiresAt, user } = await auth.login({
        ...request.body,
        address: request.ip,
        userAgent: request.headers['user-agent'] ?? null,
      });
      setSessionCookie(reply, token, expiresAt);
      return { user };
    },
  );

  // Public: signing out must work even when the session has already expired (and, like me and
  // change-password, while a new password is still to be chosen).
  r.post(
    '/api/auth/logout',
    {
      schema: { response: { 200: z.object({ success: z.literal(true) }) } },
      config: { access: access.public, allowDuringPasswordChange: true },
    },
    async (request, reply) => {
      await auth.logout(request.cookies[SESSION_COOKIE]);
      clearSessionCookie(reply);
      return { success: true as const };
    },
  );

  r.get(
    '/api/auth/me',
    {
      schema: { response: { 200: loginResponseSchema } },
      config: { access: access.signedIn, allowDuringPasswordChange: true },
    },
    async (request) => ({ user: currentUser(request) }),
  );

  // The signed-in user's own new password; the one call besides me and logout that a user who
  // must change their password may make. Answers the user as login does.
  r.post(
    '/api/auth/change-password',
    {
      schema: { body: changePasswordRequestSchema, response: { 200: loginResponseSchema } },
      config: { access: access.signedIn, allowDuringPasswordChange: true },
    },
    async (request) => {
      if (!request.auth) throw new AppError('NOT_AUTHENTICATED');
      const user = await auth.changePassword(
        { ...currentActor(request), sessionId: request.auth.sessionId, address: request.ip },
        request.body,
      );
      return { user };
    },
  );

  r.get(
    '/api/auth/demo-accounts',
    { schema: { response: { 200: demoAccountsResponseSchema } }, config: { access: access.public } },
    async () => {
      // Off: an empty answer rather than a 404, so the login page logs no error in production.
      if (!demo) return { accounts: [], password: '' };
      return {
        accounts: DEMO_ACCOUNTS.map(({ role, employeeId, name }) => ({ role, employeeId, name })),
        password: DEMO_PASSWORD,
      };
    },
  );
}
