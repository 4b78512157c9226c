import { runLoad } from '../lib/load.js';
import type { Scenario } from '../lib/types.js';

/**
 * Successful sign-ins: argon2id verification (deliberately slow) plus a new session row each.
 * Only failed sign-ins are throttled, so the right password can be sent as fast as it goes.
 */
export const login: Scenario = {
  name: 'login',
  description: 'POST /api/auth/login with the right password as the demo Technician, 10 connections',
  run(ctx) {
    const technician = ctx.demo.byRole('Technician');
    return runLoad(ctx, {
      path: '/api/auth/login',
      method: 'POST',
      json: { employeeId: technician.employeeId, password: ctx.demo.password },
      connections: ctx.connections(10),
      unit: 'logins/s',
      timeoutSeconds: 30,
    });
  },
};
