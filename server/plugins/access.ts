/**
 * Who may call what, decided on the server for every /api route. Each route declares its
 * rule in `config.access`; this plugin resolves the session cookie and enforces the rule
 * before the body is read. A route without a rule is refused (fail closed).
 * The X-User-Data header the spec's client sends is never read here.
 *
 * A user whose password someone else chose (mustChangePassword) is refused with
 * PASSWORD_CHANGE_REQUIRED on every signed-in route that does not declare
 * `config.allowDuringPasswordChange` (me, logout, change-password, language).
 *
 * Sessions come from whatever satisfies SessionResolver (the auth feature's service, passed in
 * by app.ts): a cross-cutting plugin imports no feature's internals (docs/architecture.md, 'Boundaries').
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { SESSION_COOKIE, type Role } from '../../common/constants.js';
import type { PublicUser } from '../../common/schemas/auth.js';
import { AppError } from '../app-error.js';

export type Access =
  | { kind: 'public' }
  | { kind: 'signed-in' }
  | { kind: 'roles'; roles: readonly Role[] }
  | { kind: 'owner' };

export const access = {
  public: { kind: 'public' },
  signedIn: { kind: 'signed-in' },
  roles: (...roles: Role[]): Access => ({ kind: 'roles', roles }),
  /** The original app's "one specific employee ID" with extra rights: admins listed in OWNER_EMPLOYEE_IDS. */
  owner: { kind: 'owner' },
} as const satisfies Record<string, Access | ((...r: Role[]) => Access)>;

export interface RequestAuth {
  user: PublicUser;
  sessionId: string;
}

/** A live session behind a cookie token, with its user as the server shows them. */
export interface ResolvedSession {
  user: PublicUser;
  sessionId: string;
  /** Set when the session was extended: the cookie is sent again with this expiry. */
  renewedUntil: Date | null;
}

/** What this plugin needs to know about sessions: the auth service satisfies it. */
export interface SessionResolver {
  resolve(token: string): Promise<ResolvedSession | null>;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
    /** Reachable while the user must still choose a new password (me, logout, change-password, language). */
    allowDuringPasswordChange?: boolean;
  }
  interface FastifyRequest {
    auth: RequestAuth | null;
  }
}

export interface AccessOptions {
  auth: SessionResolver;
  sessionTtlSeconds: number;
}

export function setSessionCookie(reply: FastifyReply, token: string, expiresAt: Date) {
  void reply.setCookie(SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    // Secure whenever the request came over HTTPS (directly or, with TRUST_PROXY, via a proxy).
    secure: 'auto',
    expires: expiresAt,
  });
}

export function clearSessionCookie(reply: FastifyReply) {
  void reply.clearCookie(SESSION_COOKIE, { path: '/' });
}

/** The signed-in user of a request whose route required one. */
export function currentUser(request: FastifyRequest): PublicUser {
  if (!request.auth) throw new AppError('NOT_AUTHENTICATED');
  return request.auth.user;
}

/** The signed-in user and the request id: who did a write, for the audit trail. */
export function currentActor(request: FastifyRequest): { user: PublicUser; requestId: string } {
  return { user: currentUser(request), requestId: String(request.id) };
}

/** The session behind the cookie and the route's rule for it: 401, 403 or the request's `auth`. */
async function checkSession(
  options: AccessOptions,
  request: FastifyRequest,
  reply: FastifyReply,
  rule: Exclude<Access, { kind: 'public' }>,
  allowDuringPasswordChange: boolean,
): Promise<void> {
  const token = request.cookies[SESSION_COOKIE];
  if (!token) throw new AppError('NOT_AUTHENTICATED');
  const signedIn = await options.auth.resolve(token);
  if (!signedIn) {
    clearSessionCookie(reply);
    throw new AppError('SESSION_EXPIRED');
  }
  if (signedIn.renewedUntil) setSessionCookie(reply, token, signedIn.renewedUntil);
  const { user } = signedIn;
  request.auth = { user, sessionId: signedIn.sessionId };

  // Before the role checks: until the new password is chosen, nothing else is answered.
  if (user.mustChangePassword === true && !allowDuringPasswordChange) {
    throw new AppError('PASSWORD_CHANGE_REQUIRED');
  }
  if (rule.kind === 'roles' && !rule.roles.includes(user.role)) throw new AppError('FORBIDDEN');
  if (rule.kind === 'owner' && !(user.role === 'Admin' && user.isOwner)) throw new AppError('FORBIDDEN');
}

async function accessPlugin(app: FastifyInstance, options: AccessOptions) {
  app.decorateRequest('auth', null);

  // onRequest, before the body is read or validated: a caller without the right gets 401 or
  // 403 whatever they sent, and an unauthenticated body is never parsed. Synchronous (done)
  // unless there is a session to look up: a public route and the web app's files wait for nothing.
  app.addHook('onRequest', (request, reply, done) => {
    // Requests that matched no route are answered by the not-found handler; the web app's
    // static files are public. Every /api route must declare its rule.
    // (request.routeOptions makes a new object at each read: read once.)
    const { url: route, config } = request.routeOptions;
    if (!route || !(route === '/api' || route.startsWith('/api/'))) return done();
    const rule = config.access;
    if (!rule) {
      request.log.error({ route }, 'route declares no access rule');
      throw new AppError('FORBIDDEN');
    }
    if (rule.kind === 'public') return done();
    checkSession(options, request, reply, rule, config.allowDuringPasswordChange === true).then(() => done(), done);
  });
}

export const accessControl = fp(accessPlugin, { name: 'access-control', dependencies: ['@fastify/cookie'] });
