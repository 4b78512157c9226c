import { addDays } from '../../common/rules/dates.js';
import { analyticsDashboardSchema, analyticsSummarySchema } from '../../common/schemas/analytics.js';
import { inTurn } from '../lib/load.js';
import { eachAlone, loadScenario } from '../lib/load-row.js';
import { getParsed, kb, READ_BUDGET } from '../lib/records.js';
import { note } from '../lib/stats.js';
import { serverToday } from '../lib/variables.js';

const DIVISION = 'RTM/WR';
const [FROM, TO] = [addDays(serverToday(), -364), serverToday()];
const RANGE = `from=${FROM}&to=${TO}&by=month`;
const SUMMARY_PATH = `/api/analytics/summary?${RANGE}`;
const PATHS = [`/api/analytics/dashboard?${RANGE}`, `/api/analytics/dashboard?${RANGE}&division=${encodeURIComponent(DIVISION)}`, SUMMARY_PATH];

// The dashboard over 12 months by month (every division, and one) and the summary an integration asks for, warm (cached per
// data version); the first answers are made uncached, timed in the notes.
export const analytics = loadScenario({
  name: 'analytics',
  description: `GET /api/analytics/dashboard (12 months by month; every division and ${DIVISION}) and /summary in turn as the demo Admin over the generated records, 50 connections`,
  budget: { ...READ_BUDGET, description: "the analytics dashboard at 100k inspections / 10k curves, as API reads: p99 <= 1.2x and throughput >= 80% of the bare aggregate's in the same run, at 50 connections on PostgreSQL (docs/architecture.md, 'Budgets')" },
  dataset: 'records',
  as: 'Admin',
  ceiling: `cof-aggregate:${DIVISION}`,
  remark: "the bare route makes one of the dashboard's aggregates anew each request; the product answers from its cache until a write",
  cpu: true,
  async prepare(ctx, admin) {
    const made: Record<string, string> = {};
    for (const path of PATHS.slice(0, 2)) {
      const { ms, bytes, body } = await getParsed(ctx, path, admin, analyticsDashboardSchema, 120_000);
      const [visits, onSchedule] = [body.summary.visits.service + body.summary.visits.cof, body.compliance.series.at(-1)?.service.onSchedule ?? 0];
      made[body.scope.division ?? 'every division'] = `${Math.round(ms)} ms, ${kb(bytes)}, ${visits} visits, ${onSchedule} curves on the schedule`;
      // Unless the generated records hang on the register, no curve is on the schedule and every figure is empty.
      if (ctx.dataset && !body.scope.division && (visits < ctx.dataset.inspections / 4 || onSchedule < ctx.dataset.curves / 4)) {
        throw new Error(`the dashboard counts ${visits} visits and ${onSchedule} curves on the schedule for ${ctx.dataset.inspections} records, ${ctx.dataset.curves} curves`);
      }
    }
    // The summary too: otherwise its first making (seconds at this size) falls in the measured phase and is its p99.
    const summary = await getParsed(ctx, SUMMARY_PATH, admin, analyticsSummarySchema, 120_000);
    made['the summary'] = `${Math.round(summary.ms)} ms, ${kb(summary.bytes)}`;
    const loads = PATHS.map((path) => ({ label: path.replace(RANGE, '…'), load: { path, headers: { cookie: admin } } }));
    return {
      load: inTurn(PATHS),
      notes: [note('the first dashboards (made uncached, one at a time)', made)],
      after: async (result) => [await eachAlone(ctx, loads, result)],
    };
  },
});
