import { BARE_CURVES_LIMIT, withBareCeiling } from '../lib/bare-ceilings.js';
import { runLoad } from '../lib/load.js';
import type { Scenario } from '../lib/types.js';

const PATH = `/api/consolidated-curves?limit=${BARE_CURVES_LIMIT}`;

/**
 * An API read as the field app makes it: the signed-in Technician lists every curve (the
 * demo seed has a few hundred), so each request resolves the session and reads the curves.
 * Its bare ceiling: a bare Fastify + Drizzle route answering the same rows (the register's first
 * 1000 in register order) under the same load: a page of 50 would be no ceiling for 1000 rows.
 */
export const curvesList: Scenario = {
  name: 'curves-list',
  description: `GET ${PATH} as the demo Technician, 50 connections; a bare route answering the same curves beside it`,
  budget: {
    description: "API reads: p99 <= 50 ms at 50 connections on PostgreSQL and >= 80% of the bare Fastify + Drizzle baseline's throughput (docs/architecture.md, 'Budgets')",
    maxP99Ms: 50,
    minThroughputRatioToBaseline: 0.8,
    connections: 50,
    database: 'postgres',
  },
  async run(ctx) {
    const technician = ctx.demo.byRole('Technician');
    const cookie = await ctx.signIn(technician.employeeId);

    // One request first, to say what is being measured (and to fail early if it is wrong).
    const probe = await fetch(`${ctx.baseUrl}${PATH}`, { headers: { cookie } });
    const text = await probe.text();
    if (probe.status !== 200) throw new Error(`GET ${PATH} answered HTTP ${probe.status}: ${text.slice(0, 300)}`);
    const body: unknown = JSON.parse(text);
    const count = body && typeof body === 'object' && 'curves' in body && Array.isArray(body.curves) ? body.curves.length : null;

    const result = await runLoad(ctx, { path: PATH, headers: { cookie }, connections: ctx.connections(50) });
    result.notes.push(
      `each response: ${count ?? '?'} curves, ${Math.round(Buffer.byteLength(text) / 1024)} KB of JSON; ` +
        'DESIGN sets the read budget for 100k inspections / 10k curves; the product answers gzipped (its cached gzip form), the bare route plain JSON',
    );
    return withBareCeiling(ctx, result, 'curves-1000', 'curves-list', () => ctx.signIn(ctx.demo.byRole('Admin').employeeId));
  },
};
