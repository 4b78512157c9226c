import { withBareCeiling } from '../lib/bare-ceilings.js';
import { runLoad } from '../lib/load.js';
import { cpuMark, cpuNote, inspectionPage, kb, medianMs, READ_BUDGET, type CpuMark } from '../lib/records.js';
import type { Scenario } from '../lib/types.js';

const PAGE = 50;
/** The records view opens at page 1; people page on a little, rarely far. */
const PAGES = 20;

/**
 * The records view's list: pages of 50 newest-first records over the generated 100k, as the
 * demo Admin (who sees every division). Each request asks for one of the first 20 pages in
 * turn, so the server cannot answer all of them from one cached plan of one page.
 */
export const inspectionsPage: Scenario = {
  name: 'inspections-page',
  description: `GET /api/inspections?limit=${PAGE}&offset=0..${(PAGES - 1) * PAGE} as the demo Admin over the generated records, 50 connections; bare ceiling: the same pages of inspection_logs`,
  budget: READ_BUDGET,
  dataset: 'records',
  async run(ctx) {
    const admin = ctx.demo.byRole('Admin');
    const cookie = await ctx.signIn(admin.employeeId);

    const first = await inspectionPage(ctx, cookie, `limit=${PAGE}&offset=0`);
    const last = await inspectionPage(ctx, cookie, `limit=${PAGE}&offset=${(PAGES - 1) * PAGE}`);
    if (first.logs.length !== PAGE || last.logs.length !== PAGE) {
      throw new Error(`expected ${PAGE} records per page, got ${first.logs.length} and ${last.logs.length} (total ${first.total})`);
    }
    const unloaded = await medianMs(9, async () => (await inspectionPage(ctx, cookie, `limit=${PAGE}&offset=${PAGE * 10}`)).ms);
    const deep = await medianMs(5, async () => (await inspectionPage(ctx, cookie, `limit=${PAGE}&offset=${Math.max(0, first.total - PAGE)}`)).ms);

    let turn = 0;
    const marks: { start?: CpuMark } = {};
    const result = await runLoad(ctx, {
      path: `/api/inspections?limit=${PAGE}&offset=0`,
      nextPath: () => `/api/inspections?limit=${PAGE}&offset=${(turn++ % PAGES) * PAGE}`,
      headers: { cookie },
      connections: ctx.connections(50),
      async beforeMeasured() {
        marks.start = await cpuMark(ctx);
      },
    });
    const cpu = cpuNote(marks.start, await cpuMark(ctx), result.requests);
    result.notes.push(
      `total ${first.total} records; each page ${PAGE} records, ${kb(first.bytes)} of JSON; ` +
        `alone (one connection): page 11 ${unloaded} ms, the last page (offset ${Math.max(0, first.total - PAGE)}) ${deep} ms`,
    );
    if (cpu) result.notes.push(cpu);
    return withBareCeiling(ctx, result, 'inspections-page', 'inspections-page', () => Promise.resolve(cookie));
  },
};
