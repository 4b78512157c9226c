import { withBareCeiling } from '../lib/bare-ceilings.js';
import { runLoad } from '../lib/load.js';
import { cpuMark, cpuNote, getJson, kb, medianMs, READ_BUDGET, type CpuMark } from '../lib/records.js';
import type { Scenario } from '../lib/types.js';

const PATH = '/api/data-summary';

/** The records view's header counts (curves, stations, inspections) over the generated data. */
export const dataSummary: Scenario = {
  name: 'data-summary',
  description: `GET ${PATH} as the demo Admin over the generated records, 50 connections; bare ceiling: one indexed page of inspection_logs`,
  budget: READ_BUDGET,
  dataset: 'records',
  async run(ctx) {
    const admin = ctx.demo.byRole('Admin');
    const cookie = await ctx.signIn(admin.employeeId);
    const probe = await getJson(ctx, PATH, cookie);
    if (probe.status !== 200) throw new Error(`GET ${PATH} answered HTTP ${probe.status}: ${JSON.stringify(probe.body).slice(0, 300)}`);
    const body = probe.body as Record<string, unknown>;
    for (const key of ['curveRecords', 'stations', 'inspectionRecords']) {
      if (typeof body[key] !== 'number') throw new Error(`GET ${PATH} has no number ${key}: ${JSON.stringify(body).slice(0, 300)}`);
    }
    const alone = await medianMs(9, async () => (await getJson(ctx, PATH, cookie)).ms);
    const marks: { start?: CpuMark } = {};
    const result = await runLoad(ctx, {
      path: PATH,
      headers: { cookie },
      connections: ctx.connections(50),
      async beforeMeasured() {
        marks.start = await cpuMark(ctx);
      },
    });
    const cpu = cpuNote(marks.start, await cpuMark(ctx), result.requests);
    result.notes.push(`answer ${JSON.stringify(body)} (${kb(probe.bytes)}); alone (one connection) ${alone} ms`);
    if (cpu) result.notes.push(cpu);
    // DESIGN's read baseline: one indexed page of the table it counts (inspection_logs).
    return withBareCeiling(ctx, result, 'inspections-page', 'data-summary', () => Promise.resolve(cookie), 'the summary counts three tables, the ceiling reads one page');
  },
};
