import { runLoad } from '../lib/load.js';
import type { Scenario } from '../lib/types.js';

/** The cheapest API route: routing, hooks, headers and one database ping. A floor for the rest. */
export const health: Scenario = {
  name: 'health',
  description: 'GET /api/health, 50 connections',
  run: (ctx) => runLoad(ctx, { path: '/api/health', connections: ctx.connections(50) }),
};
