import { scheduleResponseSchema, type ScheduleSectionSummary, scheduleSummaryResponseSchema } from '../../common/schemas/schedule.js';
import { inTurn } from '../lib/load.js';
import { afterWrites, eachAlone, loadScenario } from '../lib/load-row.js';
import { getParsed, kb, medianMs, READ_BUDGET } from '../lib/records.js';
import { round, summarizeLatencies } from '../lib/stats.js';
import type { ScenarioContext } from '../lib/types.js';
import { type CurveKey, uploadCofVisit, visitPhoto } from '../lib/visits.js';

const PAGE = 50;
const DIVISION = 'RTM/WR';
const TECHNICIAN_PATH = `/api/schedule?limit=${PAGE}&status=attention`;
const DIVISION_PATH = `/api/schedule?division=${encodeURIComponent(DIVISION)}&limit=${PAGE}&status=attention`;
const PATHS = [TECHNICIAN_PATH, DIVISION_PATH] as const;
const UNCACHED_RUNS = 30;

const schedulePage = (ctx: ScenarioContext, cookie: string, path: string) => getParsed(ctx, path, cookie, scheduleResponseSchema, 60_000);

async function dataCheck(ctx: ScenarioContext, admin: string): Promise<string> {
  const answer = await getParsed(ctx, '/api/schedule/summary', admin, scheduleSummaryResponseSchema);
  const { sections } = answer.body;
  const sum = (pick: (s: ScheduleSectionSummary) => number) => sections.reduce((n, s) => n + pick(s), 0);
  const [curves, serviceNever, cofNever] = [sum((s) => s.curves), sum((s) => s.service.never), sum((s) => s.cof.never)];
  if (ctx.dataset && curves !== ctx.dataset.curves) throw new Error(`the schedule covers ${curves} curves, the register was loaded with ${ctx.dataset.curves}`);
  // Unless the generated records hang on the register's keys, every curve reads "never done" and the look-ups find nothing.
  if (serviceNever > curves / 2 || cofNever > curves / 2) {
    throw new Error(`${serviceNever} of ${curves} curves have no Service visit and ${cofNever} no CoF visit: the generated records' curve keys do not match the register`);
  }
  return (
    `data: ${curves} curves; the look-ups find a last Service visit for ${curves - serviceNever} and a last CoF for ${curves - cofNever} ` +
    `(GET /api/schedule/summary, ${round(answer.ms, 0)} ms); on the due lists: Service ${sum((s) => s.service.attention)}, CoF ${sum((s) => s.cof.attention)}`
  );
}

const ms = (value: number) => `${round(value, 1)} ms`;

async function uncachedNote(ctx: ScenarioContext, technician: string, firstPages: ReadonlyArray<Awaited<ReturnType<typeof schedulePage>>>): Promise<string> {
  ctx.log(`schedule: ${UNCACHED_RUNS} requests, each right after an upload ...`);
  const photo = await visitPhoto();
  const upload = (i: number) => {
    const curve: CurveKey | undefined = firstPages[i % 2]?.body.curves[Math.floor(i / 2) % PAGE];
    if (!curve) throw new Error('no curve to visit');
    return uploadCofVisit(ctx, technician, photo, curve, firstPages[0]?.body.asOf ?? '');
  };
  const runs = await afterWrites(UNCACHED_RUNS, upload, (i) => schedulePage(ctx, technician, PATHS[i % 2] ?? TECHNICIAN_PATH));
  // A new ETag: the page was made again, not answered from before the upload.
  const before = [...firstPages.map((page) => page.etag), ...runs.etags];
  const changed = runs.etags.filter((etag, i) => etag !== before[i]).length;
  const all = summarizeLatencies(runs.cold);
  const byPage = [0, 1].map((which) => summarizeLatencies(runs.cold.filter((_, i) => i % 2 === which)));
  return (
    `uncached (no budget: the budget table sets none; for information): ${UNCACHED_RUNS} requests, one at a time, each right after a CoF upload ` +
    `(which moves inspection_logs' version on and so empties the cache): p50 ${ms(all.p50)}, p99 ${ms(all.p99)}, max ${ms(all.max)}; ` +
    `technician page p50 ${ms(byPage[0]?.p50 ?? 0)} / max ${ms(byPage[0]?.max ?? 0)}, ${DIVISION} page p50 ${ms(byPage[1]?.p50 ?? 0)} / max ${ms(byPage[1]?.max ?? 0)}; ` +
    `the same request again at once (cached) p50 ${ms(summarizeLatencies(runs.warm).p50)}; ${changed} of ${UNCACHED_RUNS} answers differed from the page before ` +
    `(a new ETag: made again); the uploads took p50 ${ms(summarizeLatencies(runs.writes).p50)} (not counted)`
  );
}

// The due list at the zone's size, warm (cached per data version); the uncached case in the notes (README).
export const schedule = loadScenario({
  name: 'schedule',
  description: `GET /api/schedule?limit=${PAGE}&status=attention, and ?division=${DIVISION}, as the demo Technician over the generated records, 50 connections; uncached after a write`,
  budget: {
    ...READ_BUDGET,
    description:
      'due list (schedule), 10k curves / 100k inspections: as API reads, p99 <= 1.2x and throughput >= 80% of the bare Fastify + Drizzle baseline\'s in the same run, at 50 connections on PostgreSQL (docs/architecture.md, "Budgets"); the uncached figures in the notes',
  },
  dataset: 'records',
  as: 'Technician',
  ceiling: `register-pages:${DIVISION}`,
  cpu: true,
  async prepare(ctx, technician) {
    const admin = await ctx.signIn(ctx.demo.byRole('Admin').employeeId);
    const notes: string[] = [await dataCheck(ctx, admin)];
    // The first answers are made now (and checked); the load then reads them from the cache.
    const first = await Promise.all(PATHS.map((path) => schedulePage(ctx, technician, path)));
    const [technicianPage, divisionPage] = first;
    if (!technicianPage || !divisionPage) throw new Error('no first pages');
    for (const [i, page] of first.entries()) {
      if (page.body.curves.length !== PAGE) throw new Error(`GET ${PATHS[i]}: ${page.body.curves.length} curves, expected ${PAGE} (total ${page.body.total})`);
    }
    if (divisionPage.body.curves.some((c) => c.divisionRailway !== DIVISION)) throw new Error(`GET ${DIVISION_PATH}: a curve of another division`);
    const alone = await Promise.all(PATHS.map(async (path) => medianMs(9, async () => (await schedulePage(ctx, technician, path)).ms)));
    notes.push(
      `the pages: ${TECHNICIAN_PATH} (${technicianPage.body.total} curves need attention; ${kb(technicianPage.bytes)} of JSON) and ${DIVISION_PATH} ` +
        `(${divisionPage.body.total}; ${kb(divisionPage.bytes)}); alone, cached (one connection, median of 9): ${alone.map((a) => `${a} ms`).join(' and ')}`,
    );
    return {
      load: inTurn(PATHS),
      notes,
      async after(result) {
        // Each page alone, and the first as the Admin: no "recent sections" of a technician to look up per request.
        const loads = [
          ...PATHS.map((path) => ({ label: path, load: { path, headers: { cookie: technician } } })),
          { label: `${TECHNICIAN_PATH} as the demo Admin (whose answer has no recent sections to look up)`, load: { path: TECHNICIAN_PATH, headers: { cookie: admin } } },
        ];
        return [await eachAlone(ctx, loads, result), await uncachedNote(ctx, technician, first)];
      },
    };
  },
});
