/** The plain request-load scenarios, one row each (lib/load-row.ts), each beside its bare ceiling under the same load. */
import { curveListResponseSchema } from '../../common/schemas/curve.js';
import { dataSummarySchema } from '../../common/schemas/records.js';
import { DEMO_USERS } from '../../server/db/seed/users.js';
import { BARE_CURVES_LIMIT } from '../lib/bare-ceilings.js';
import { inTurn, RECORDS_LIST_PATHS } from '../lib/load.js';
import { type LoadRow, loadScenario, type RowLoad } from '../lib/load-row.js';
import { getJson, getParsed, inspectionPage, kb, medianMs, READ_BUDGET } from '../lib/records.js';
import type { Budget, Scenario, ScenarioContext } from '../lib/types.js';

function signInRow(name: string, description: string, employeeIds: (ctx: ScenarioContext) => readonly string[]): LoadRow {
  const remark = 'the product also takes and settles a throttle slot, deletes expired sessions, inserts a session row and a trusted-browser row';
  const prepare = (ctx: ScenarioContext) => {
    const bodies = employeeIds(ctx).map((employeeId) => Buffer.from(JSON.stringify({ employeeId, password: ctx.demo.password })));
    let next = 0;
    const headers = { 'content-type': 'application/json' };
    const load: RowLoad = { path: '/api/auth/login', method: 'POST', headers, nextBody: () => bodies[next++ % bodies.length] as Buffer, unit: 'logins/s', timeoutSeconds: 30 };
    return Promise.resolve({ load, notes: [] });
  };
  return { name, description: `POST /api/auth/login with the right password, ${description}; bare read + argon2id verify beside it`, connections: 10, ceiling: 'login', remark, prepare };
}

const CURVES_PATH = `/api/consolidated-curves?limit=${BARE_CURVES_LIMIT}`;
const SUMMARY_PATH = '/api/data-summary';
const PAGE = 50;
const PAGES = 20;

/**
 * The request path's floor (issue 28): every route pays for the hooks health passes through
 * (security headers, origin, access, request id, logging, error handling), so they may cost
 * at most a fifth of a bare route's throughput. docs/architecture.md's budgets name no figure
 * for health; this one is the read budget's ratio, without its p99 (a ping has no rows to wait for).
 */
const HEALTH_BUDGET: Budget = {
  description:
    "GET /api/health (the hooks in front of every route, one database ping): >= 80% of the bare Fastify + Drizzle `select 1` route's throughput at 50 connections on PostgreSQL",
  minThroughputRatioToBaseline: 0.8,
  connections: 50,
  database: 'postgres',
};

const ROWS: readonly LoadRow[] = [
  {
    name: 'health',
    description: 'GET /api/health, 50 connections; bare Fastify + `select 1` beside it',
    budget: HEALTH_BUDGET,
    ceiling: 'select-1',
    cpu: true,
    prepare: () => Promise.resolve({ load: { path: '/api/health' }, notes: [] }),
  },
  {
    // The field app's list of every curve; the ceiling answers the same rows (a page of 50 would be no ceiling for 1000).
    name: 'curves-list',
    description: `GET ${CURVES_PATH} as the demo Technician, 50 connections; a bare route answering the same curves beside it`,
    budget: READ_BUDGET,
    as: 'Technician',
    ceiling: 'curves-1000',
    async prepare(ctx, cookie) {
      const probe = await getParsed(ctx, CURVES_PATH, cookie, curveListResponseSchema);
      const note =
        `each response: ${probe.body.curves.length} curves, ${Math.round(probe.bytes / 1024)} KB of JSON; ` +
        'The budget table sets the read budget for 100k inspections / 10k curves; the product answers gzipped (its cached gzip form), the bare route plain JSON';
      return { load: { path: CURVES_PATH }, notes: [note] };
    },
  },
  signInRow('login', 'the 7 demo accounts in turn, 10 connections', () => DEMO_USERS.map((u) => u.employeeId)),
  // A class on one demo account: the throttle lets at most 5 attempts on one ID be under way at once; the others wait for a slot.
  signInRow('login-one-account', 'all 10 connections as the demo Technician (at most 5 under way at once on one ID)', (ctx) => [ctx.demo.byRole('Technician').employeeId]),
  {
    // The records view's list, one of the first 20 pages in turn, so no one cached plan of one page answers all.
    name: 'inspections-page',
    description: `GET /api/inspections?limit=${PAGE}&offset=0..${(PAGES - 1) * PAGE} as the demo Admin over the generated records, 50 connections; bare ceiling: the same pages of inspection_logs`,
    budget: READ_BUDGET,
    dataset: 'records',
    as: 'Admin',
    ceiling: 'inspections-page',
    cpu: true,
    async prepare(ctx, cookie) {
      const first = await inspectionPage(ctx, cookie, `limit=${PAGE}&offset=0`);
      const last = await inspectionPage(ctx, cookie, `limit=${PAGE}&offset=${(PAGES - 1) * PAGE}`);
      if (first.logs.length !== PAGE || last.logs.length !== PAGE) {
        throw new Error(`expected ${PAGE} records per page, got ${first.logs.length} and ${last.logs.length} (total ${first.total})`);
      }
      const lastOffset = Math.max(0, first.total - PAGE);
      const unloaded = await medianMs(9, async () => (await inspectionPage(ctx, cookie, `limit=${PAGE}&offset=${PAGE * 10}`)).ms);
      const deep = await medianMs(5, async () => (await inspectionPage(ctx, cookie, `limit=${PAGE}&offset=${lastOffset}`)).ms);
      return {
        load: inTurn(RECORDS_LIST_PATHS),
        notes: [
          `total ${first.total} records; each page ${PAGE} records, ${kb(first.bytes)} of JSON; ` +
            `alone (one connection): page 11 ${unloaded} ms, the last page (offset ${lastOffset}) ${deep} ms`,
        ],
      };
    },
  },
  {
    name: 'data-summary',
    description: `GET ${SUMMARY_PATH} as the demo Admin over the generated records, 50 connections; bare ceiling: one indexed page of inspection_logs`,
    budget: READ_BUDGET,
    dataset: 'records',
    as: 'Admin',
    ceiling: 'inspections-page',
    remark: 'the summary counts three tables, the ceiling reads one page',
    cpu: true,
    async prepare(ctx, cookie) {
      const probe = await getParsed(ctx, SUMMARY_PATH, cookie, dataSummarySchema);
      const alone = await medianMs(9, async () => (await getJson(ctx, SUMMARY_PATH, cookie)).ms);
      return { load: { path: SUMMARY_PATH }, notes: [`answer ${JSON.stringify(probe.body)} (${kb(probe.bytes)}); alone (one connection) ${alone} ms`] };
    },
  },
];

export const [health, curvesList, login, loginOneAccount, inspectionsPage, dataSummary] = ROWS.map(loadScenario) as [Scenario, Scenario, Scenario, Scenario, Scenario, Scenario];
