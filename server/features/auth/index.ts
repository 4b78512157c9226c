/**
 * Signing in: sessions, the sign-in throttle and trusted browsers. The app makes the service
 * (createAuthService) because the access plugin resolves every request's session with it;
 * User Management uses the throttle's keys and the trusted browsers of a user.
 */
import type { FastifyInstance } from 'fastify';
import { authRoutes } from './routes.js';
import type { AuthService } from './service.js';

export { clearFailures, employeeKey } from './login-throttle.js';
export { createAuthService, sessionIdOf, type AuthService } from './service.js';
export { forgetDevicesOfUser } from './trusted-devices.js';

export interface AuthFeatureOptions {
  auth: AuthService;
  demo: boolean;
}

export async function authFeature(app: FastifyInstance, { auth, demo }: AuthFeatureOptions) {
  // Dead sessions, sign-in counts and trusted browsers nobody can use go at start and hourly.
  app.addHook('onReady', async () => auth.start());
  app.addHook('onClose', async () => auth.stop());
  await app.register(authRoutes, { auth, demo });
}
