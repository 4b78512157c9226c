import { DEMO_USERS } from '../../server/db/seed/users.js';
import { withBareCeiling } from '../lib/bare-ceilings.js';
import { runLoad } from '../lib/load.js';
import type { Scenario, ScenarioContext } from '../lib/types.js';

/**
 * Successful sign-ins: argon2id verification (deliberately slow) plus the throttle's slot (taken
 * before the check, settled after), a new session row and a trusted-browser row each. Its bare
 * ceiling: a bare Fastify route reading the user and verifying the password with
 * @node-rs/argon2 (the stored hash's parameters: the server's), same body and connections.
 *
 * `login` is a shift starting: the demo seed's seven accounts signing in at once, in turn.
 * `login-one-account` is ten connections on one employee ID (a class on one demo account): the
 * throttle lets at most 5 attempts on one ID be under way at once (the tries it has), so the
 * others wait a moment for a slot; it has no budget and says what that wait costs.
 */
function signIns(ctx: ScenarioContext, employeeIds: readonly string[]) {
  const bodies = employeeIds.map((employeeId) => Buffer.from(JSON.stringify({ employeeId, password: ctx.demo.password })));
  let next = 0;
  return runLoad(ctx, {
    path: '/api/auth/login',
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    nextBody: () => bodies[next++ % bodies.length] as Buffer,
    connections: ctx.connections(10),
    unit: 'logins/s',
    timeoutSeconds: 30,
  });
}

const NOTE = 'the product also takes and settles a throttle slot, deletes expired sessions, inserts a session row and a trusted-browser row';

export const login: Scenario = {
  name: 'login',
  description: 'POST /api/auth/login with the right password, the 7 demo accounts in turn, 10 connections; bare read + argon2id verify beside it',
  async run(ctx) {
    const result = await signIns(ctx, DEMO_USERS.map((u) => u.employeeId));
    return withBareCeiling(ctx, result, 'login', 'login', () => ctx.signIn(ctx.demo.byRole('Admin').employeeId), NOTE);
  },
};

export const loginOneAccount: Scenario = {
  name: 'login-one-account',
  description: 'POST /api/auth/login with the right password, all 10 connections as the demo Technician (at most 5 under way at once on one ID); bare read + argon2id verify beside it',
  async run(ctx) {
    const result = await signIns(ctx, [ctx.demo.byRole('Technician').employeeId]);
    return withBareCeiling(ctx, result, 'login', 'login', () => ctx.signIn(ctx.demo.byRole('Admin').employeeId), NOTE);
  },
};
