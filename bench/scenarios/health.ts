import { withBareCeiling } from '../lib/bare-ceilings.js';
import { runLoad } from '../lib/load.js';
import type { Scenario } from '../lib/types.js';

/**
 * The cheapest API route: routing, hooks, headers and one database ping. A floor for the rest.
 * Its bare ceiling: a bare Fastify route doing one `select 1` through Drizzle, same load.
 */
export const health: Scenario = {
  name: 'health',
  description: 'GET /api/health, 50 connections; bare Fastify + `select 1` beside it',
  async run(ctx) {
    const result = await runLoad(ctx, { path: '/api/health', connections: ctx.connections(50) });
    return withBareCeiling(ctx, result, 'select-1', 'health', () => ctx.signIn(ctx.demo.byRole('Admin').employeeId));
  },
};
