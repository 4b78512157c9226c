import { withBareCeiling } from '../lib/bare-ceilings.js';
import { runLoad } from '../lib/load.js';
import type { Scenario } from '../lib/types.js';

/**
 * Successful sign-ins: argon2id verification (deliberately slow) plus a new session row each.
 * Only failed sign-ins are throttled, so the right password can be sent as fast as it goes.
 * Its bare ceiling: a bare Fastify route reading the user and verifying the password with
 * @node-rs/argon2 (the stored hash's parameters: the server's), same body and connections.
 */
export const login: Scenario = {
  name: 'login',
  description: 'POST /api/auth/login with the right password as the demo Technician, 10 connections; bare read + argon2id verify beside it',
  async run(ctx) {
    const technician = ctx.demo.byRole('Technician');
    const result = await runLoad(ctx, {
      path: '/api/auth/login',
      method: 'POST',
      json: { employeeId: technician.employeeId, password: ctx.demo.password },
      connections: ctx.connections(10),
      unit: 'logins/s',
      timeoutSeconds: 30,
    });
    return withBareCeiling(
      ctx,
      result,
      'login',
      'login',
      () => ctx.signIn(ctx.demo.byRole('Admin').employeeId),
      'the product also checks the throttle, clears failures, deletes expired sessions and inserts a session row',
    );
  },
};
