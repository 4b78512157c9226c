import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { SESSION_COOKIE } from '../../../common/constants.js';
import {
  demoAccountsResponseSchema,
  languageRequestSchema,
  loginRequestSchema,
  loginResponseSchema,
} from '../../../common/schemas/auth.js';
import { changePasswordRequestSchema } from '../../../common/schemas/user-password.js';
import { AppError } from '../../app-error.js';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from '../../db/seed/demo-accounts.js';
import { access, clearSessionCookie, currentActor, currentUser, setSessionCookie } from '../../plugins/access.js';
import type { AuthService, DeviceCookie } from './service.js';
import { DEVICE_COOKIE, DEVICE_COOKIE_PATH } from './trusted-devices.js';

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
      const { token, expiresAt, user, device } = await auth.login({
        ...request.body,
        address: request.ip,
        deviceToken: request.cookies[DEVICE_COOKIE],
        userAgent: request.headers['user-agent'] ?? null,
      });
      setSessionCookie(reply, token, expiresAt);
      setDeviceCookie(reply, device);
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

  // The signed-in user's own new password; with me, logout and language, the calls a user who
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
        { ...currentActor(request), sessionId: request.auth.sessionId, address: request.ip, deviceToken: request.cookies[DEVICE_COOKIE] },
        request.body,
      );
      return { user };
    },
  );

  // The signed-in user's own interface language, so it follows them to another phone. Allowed
  // while a new password is still to be chosen, so that screen too can be read in their
  // language. Answers the user as me does.
  r.put(
    '/api/auth/language',
    {
      schema: { body: languageRequestSchema, response: { 200: loginResponseSchema } },
      config: { access: access.signedIn, allowDuringPasswordChange: true },
    },
    async (request) => ({ user: await auth.setLanguage(currentActor(request), request.body) }),
  );

  // Demo mode only: outside it the published password is not served at all (404), and the
  // login page's card stays hidden.
  r.get(
    '/api/auth/demo-accounts',
    { schema: { response: { 200: demoAccountsResponseSchema } }, config: { access: access.public } },
    async () => {
      if (!demo) throw new AppError('NOT_FOUND', 'Demo mode is off');
      return {
        accounts: DEMO_ACCOUNTS.map(({ role, employeeId, name }) => ({ role, employeeId, name })),
        password: DEMO_PASSWORD,
      };
    },
  );
}

/** The browser a user just signed in from is trusted for their next sign-ins (trusted-devices.ts). */
function setDeviceCookie(reply: FastifyReply, device: DeviceCookie) {
  void reply.setCookie(DEVICE_COOKIE, device.token, {
    path: DEVICE_COOKIE_PATH,
    httpOnly: true,
    // Only the app's own pages send it: a cross-site form cannot spend a device's allowance.
    sameSite: 'strict',
    secure: 'auto',
    expires: device.expiresAt,
  });
}
