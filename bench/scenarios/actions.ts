import { actionCountsResponseSchema, actionListResponseSchema } from '../../common/schemas/actions.js';
import { ACTION_KINDS } from '../../common/rules/follow-up-actions.js';
import { inTurn } from '../lib/load.js';
import { afterWrites, eachAlone, loadScenario } from '../lib/load-row.js';
import { getParsed, kb, medianMs, READ_BUDGET } from '../lib/records.js';
import { note, summarizeLatencies } from '../lib/stats.js';
import type { ScenarioContext } from '../lib/types.js';
import { uploadCofVisit, visitPhoto } from '../lib/visits.js';

const PAGE = 50;
const DIVISION = 'RTM/WR';
const OPEN_PATH = `/api/actions?state=open&limit=${PAGE}`;
const DIVISION_PATH = `/api/actions?division=${encodeURIComponent(DIVISION)}&state=open&limit=${PAGE}`;
const COUNTS_PATH = '/api/actions/counts';
const PATHS = [OPEN_PATH, DIVISION_PATH, COUNTS_PATH] as const;
const UNCACHED_RUNS = 30;
// Above and within the default CoF alert threshold (0.25): each upload opens, or closes, a cof-high action.
const [COF_HIGH, COF_FINE] = ['0.40', '0.20'];

const read = (ctx: ScenarioContext, cookie: string, path: string) =>
  path === COUNTS_PATH ? getParsed(ctx, path, cookie, actionCountsResponseSchema) : getParsed(ctx, path, cookie, actionListResponseSchema);
const total = async (ctx: ScenarioContext, cookie: string, query: string) => (await getParsed(ctx, `/api/actions?${query}&limit=1`, cookie, actionListResponseSchema)).body.total;

// Unless the generated visits filed actions (server/db/seed/scale/load.ts), the list and counts would read an almost empty table.
async function dataCheck(ctx: ScenarioContext, admin: string): Promise<string> {
  const open: Record<string, number> = {};
  for (const kind of ACTION_KINDS) open[kind] = await total(ctx, admin, `state=open&kind=${kind}`);
  const closed = await total(ctx, admin, 'state=closed');
  const all = closed + Object.values(open).reduce((a, b) => a + b, 0);
  const kinds = Object.values(open).filter((n) => n > 0).length;
  const records = ctx.dataset?.inspections ?? 0;
  if (kinds < 3 || closed === 0 || all < records / 20) {
    throw new Error(`the actions table holds ${JSON.stringify(open)} open and ${closed} closed for ${records} records: not the scale seed's actions`);
  }
  return note(`data: ${all} follow-up actions over ${records} records`, { ...Object.fromEntries(Object.entries(open).map(([k, n]) => [`open ${k}`, n])), closed });
}

// The actions list and counts at the zone's size, warm (cached per data version); the uncached case in the notes (README).
export const actions = loadScenario({
  name: 'actions',
  description: `GET ${OPEN_PATH}, ?division=${DIVISION} and ${COUNTS_PATH} in turn as the demo Admin over the generated records' actions, 50 connections; uncached after a write`,
  budget: {
    ...READ_BUDGET,
    description:
      "follow-up actions list and counts, 100k inspections / 10k curves: as API reads, p99 <= 1.2x and throughput >= 80% of the bare Fastify + Drizzle baseline's in the same run, at 50 connections on PostgreSQL (docs/architecture.md, 'Budgets'); the uncached figures in the notes",
  },
  dataset: 'records',
  as: 'Admin',
  ceiling: `actions-pages:${DIVISION}`,
  remark: 'one request in three of the product is the counts (a grouped count of the open actions), the ceiling reads pages only',
  cpu: true,
  async prepare(ctx, admin) {
    const notes = [await dataCheck(ctx, admin)];
    const [openPage, divisionPage, counts] = await Promise.all([
      getParsed(ctx, OPEN_PATH, admin, actionListResponseSchema),
      getParsed(ctx, DIVISION_PATH, admin, actionListResponseSchema),
      getParsed(ctx, COUNTS_PATH, admin, actionCountsResponseSchema),
    ]);
    for (const [path, page] of [[OPEN_PATH, openPage], [DIVISION_PATH, divisionPage]] as const) {
      if (page.body.actions.length !== PAGE || page.body.actions.some((a) => a.state !== 'open')) throw new Error(`GET ${path}: not ${PAGE} open actions (total ${page.body.total})`);
    }
    if (divisionPage.body.actions.some((a) => a.divisionRailway !== DIVISION)) throw new Error(`GET ${DIVISION_PATH}: an action of another division`);
    const alone = await Promise.all(PATHS.map(async (path) => medianMs(9, async () => (await read(ctx, admin, path)).ms)));
    notes.push(
      note('the answers (alone, cached: one connection, median of 9)', {
        [OPEN_PATH]: `${openPage.body.total} open, ${kb(openPage.bytes)}, ${alone[0]} ms`,
        [DIVISION_PATH]: `${divisionPage.body.total} open, ${kb(divisionPage.bytes)}, ${alone[1]} ms`,
        [COUNTS_PATH]: `${counts.body.divisions.length} divisions, ${counts.body.divisions.reduce((n, d) => n + d.overdue, 0)} overdue, ${kb(counts.bytes)}, ${alone[2]} ms`,
      }),
    );
    return {
      load: inTurn(PATHS),
      notes,
      async after(result) {
        const alone = await eachAlone(ctx, PATHS.map((path) => ({ label: path, load: { path, headers: { cookie: admin } } })), result);
        ctx.log(`actions: ${UNCACHED_RUNS} requests, each right after an upload ...`);
        const technician = await ctx.signIn(ctx.demo.byRole('Technician').employeeId);
        const photo = await visitPhoto();
        const curve = openPage.body.actions[0];
        if (!curve) throw new Error('no action to visit');
        // In pairs on one curve: a high reading opens (or joins) its cof-high action, a fine one closes it; either moves the version on.
        const upload = (i: number) => uploadCofVisit(ctx, technician, photo, curve, openPage.body.asOf, i % 2 === 0 ? COF_HIGH : COF_FINE);
        const runs = await afterWrites(UNCACHED_RUNS, upload, (i) => read(ctx, admin, PATHS[i % PATHS.length] ?? OPEN_PATH));
        const ms = (list: number[], pick: 'p50' | 'p99' | 'max') => `${summarizeLatencies(list)[pick]} ms`;
        const uncached = note(
          `uncached (no budget: the budget table sets none; for information): ${UNCACHED_RUNS} requests, one at a time, each right after a CoF upload on ${curve.section} ${curve.curveNumber} ${curve.line} (which moves follow_up_actions' version on and so empties the cache), the three in turn`,
          {
            p50: ms(runs.cold, 'p50'),
            p99: ms(runs.cold, 'p99'),
            max: ms(runs.cold, 'max'),
            ...Object.fromEntries(PATHS.map((path, p) => [`${path} p50`, ms(runs.cold.filter((_, i) => i % PATHS.length === p), 'p50')])),
            'the same request again at once (cached) p50': ms(runs.warm, 'p50'),
            'the uploads took p50': `${ms(runs.writes, 'p50')} (not counted)`,
          },
        );
        return [alone, uncached];
      },
    };
  },
});
