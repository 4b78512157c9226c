import { runLoad } from '../lib/load.js';
import type { Scenario } from '../lib/types.js';

const PATH = '/api/consolidated-curves?limit=1000';

/**
 * An API read as the field app makes it: the signed-in Technician lists every curve (the
 * demo seed has a few hundred), so each request resolves the session and reads the curves.
 */
export const curvesList: Scenario = {
  name: 'curves-list',
  description: `GET ${PATH} as the demo Technician, 50 connections`,
  budget: {
    description: 'API reads: p99 <= 50 ms at 50 connections on PostgreSQL (DESIGN section 10)',
    maxP99Ms: 50,
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
        'DESIGN sets the read budget for 100k inspections / 10k curves',
    );
    return result;
  },
};
