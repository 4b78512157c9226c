import { DIVISIONS } from '../../common/constants.js';
import { addDays } from '../../server/db/seed/calendar.js';
import { withBareCeiling } from '../lib/bare-ceilings.js';
import { runLoad } from '../lib/load.js';
import { cpuMark, cpuNote, inspectionPage, kb, medianMs, READ_BUDGET, type CpuMark, type LogSummary } from '../lib/records.js';
import type { Scenario } from '../lib/types.js';

const PAGE = 50;
/** Seconds of each per-filter load phase after the mixed one (for the notes only). */
const PER_KIND_SECONDS = 2;

interface Kind {
  name: string;
  queries: string[];
}

const q = (params: Record<string, string | number>) =>
  Object.entries(params)
    .map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`)
    .join('&');

function distinct<T>(items: readonly T[], key: (item: T) => string, count: number): T[] {
  const seen = new Set<string>();
  const out: T[] = [];
  for (const item of items) {
    const k = key(item);
    if (seen.has(k)) continue;
    seen.add(k);
    out.push(item);
    if (out.length >= count) break;
  }
  return out;
}

/** Filters as the records view's filter bar makes them, with values taken from real records. */
function buildKinds(sample: readonly LogSummary[], older: readonly LogSummary[]): Kind[] {
  const pages = (base: Record<string, string>, offsets = [0, PAGE]) => offsets.map((offset) => q({ limit: PAGE, offset, ...base }));
  // Recent windows and windows a year or two back: newest-first plans differ a lot between them.
  const dated = [...distinct(sample, (l) => l.date.slice(0, 7), 2), ...distinct(older, (l) => l.date.slice(0, 7), 4)];
  return [
    { name: 'division', queries: DIVISIONS.flatMap((division) => pages({ division })) },
    {
      name: 'type+dates',
      // A month's CoF readings, or a quarter's services: the report-style questions.
      queries: dated.flatMap((l, i) =>
        i % 2 === 0
          ? pages({ type: 'CoF', from: addDays(l.date, -15), to: addDays(l.date, 15) })
          : pages({ type: 'Service', from: addDays(l.date, -45), to: addDays(l.date, 45) }),
      ),
    },
    { name: 'technician', queries: distinct(sample, (l) => l.technicianId, 6).flatMap((l) => pages({ technicianId: l.technicianId })) },
    {
      name: 'section+curve',
      queries: distinct(sample, (l) => `${l.section}|${l.curveNumber}`, 8).map((l) => q({ limit: PAGE, offset: 0, section: l.section, curveNumber: l.curveNumber })),
    },
    {
      name: 'q (record ID part)',
      // The six characters people read off a record, and a shorter part that matches several.
      queries: distinct(sample, (l) => l.recordId, 8).map((l, i) => q({ limit: PAGE, offset: 0, q: i % 4 === 3 ? l.recordId.slice(-6, -2).toLowerCase() : l.recordId.slice(-6) })),
    },
    {
      name: 'division+type',
      queries: DIVISIONS.slice(0, 3).flatMap((division, i) => pages({ division, type: i % 2 === 0 ? 'CoF' : 'Service' })),
    },
  ];
}

/**
 * The records view's filters over the generated 100k records as the demo Admin: division,
 * type with a date range, technician, section with curve number, part of a record ID, and
 * division with type, interleaved request by request. After the measured mix, each kind runs
 * alone for a moment so that the notes say which filter is the slow one.
 */
export const inspectionsFiltered: Scenario = {
  name: 'inspections-filtered',
  description:
    'GET /api/inspections with a mix of filters (division, type+dates, technician, section+curve, q, division+type), 50 connections; bare ceiling: one indexed page of inspection_logs',
  budget: READ_BUDGET,
  dataset: 'records',
  async run(ctx) {
    const admin = ctx.demo.byRole('Admin');
    const cookie = await ctx.signIn(admin.employeeId);
    // Real values to filter by, from records some way into the list.
    const sample = (await inspectionPage(ctx, cookie, q({ limit: 500, offset: 2_000 }))).logs;
    if (sample.length < 100) throw new Error(`expected 500 records at offset 2000 to pick filter values from, got ${sample.length}`);
    const listTotal = (await inspectionPage(ctx, cookie, q({ limit: 1, offset: 0 }))).total;
    // Dates from across the older part of the list (a few hundred records, some 30 % to 90 % down).
    const older: LogSummary[] = [];
    for (const share of [0.3, 0.5, 0.7, 0.9]) {
      older.push(...(await inspectionPage(ctx, cookie, q({ limit: 100, offset: Math.floor(listTotal * share) }))).logs);
    }
    const kinds = buildKinds(sample, older);

    const alone: string[] = [];
    for (const kind of kinds) {
      let total = 0;
      let bytes = 0;
      for (const query of kind.queries) {
        const page = await inspectionPage(ctx, cookie, query);
        if (page.logs.length > PAGE) throw new Error(`GET /api/inspections?${query} answered ${page.logs.length} records (limit ${PAGE})`);
        if (page.total === 0) throw new Error(`GET /api/inspections?${query} found no records: the filter values come from real records`);
        total += page.total;
        bytes += page.bytes;
      }
      let turn = 0;
      const ms = await medianMs(Math.max(7, kind.queries.length), async () => {
        const query = kind.queries[turn++ % kind.queries.length] ?? '';
        return (await inspectionPage(ctx, cookie, query)).ms;
      });
      alone.push(`${kind.name} ${ms} ms (${kind.queries.length} queries, ~${Math.round(total / kind.queries.length)} matches, ${kb(bytes / kind.queries.length)})`);
    }

    const mix: string[] = [];
    for (let i = 0; mix.length < kinds.reduce((n, k) => n + k.queries.length, 0); i++) {
      for (const kind of kinds) {
        const query = kind.queries[i];
        if (query !== undefined) mix.push(`/api/inspections?${query}`);
      }
    }
    let turn = 0;
    const marks: { start?: CpuMark } = {};
    // The probes above run one at a time; nothing is queued on the server when the load starts.
    const result = await runLoad(ctx, {
      path: '/api/inspections?<filters>',
      nextPath: () => mix[turn++ % mix.length] ?? '/api/inspections',
      headers: { cookie },
      connections: ctx.connections(50),
      async beforeMeasured() {
        marks.start = await cpuMark(ctx);
      },
    });
    const cpu = cpuNote(marks.start, await cpuMark(ctx), result.requests);

    const underLoad: string[] = [];
    for (const kind of kinds) {
      // Requests the last phase left in flight finish first (on PGlite they queue for seconds).
      await inspectionPage(ctx, cookie, kind.queries[0] ?? '');
      let k = 0;
      const alone = await runLoad(
        { ...ctx, durationSeconds: PER_KIND_SECONDS, warmupSeconds: 0 },
        {
          path: `/api/inspections?${kind.queries[0] ?? ''}`,
          nextPath: () => `/api/inspections?${kind.queries[k++ % kind.queries.length] ?? ''}`,
          headers: { cookie },
          connections: ctx.connections(50),
        },
      );
      const bad = alone.errors + alone.non2xx;
      underLoad.push(`${kind.name} ${alone.throughput} req/s p50 ${alone.latencyMs.p50} p99 ${alone.latencyMs.p99} ms${bad ? ` (${bad} errors)` : ''}`);
    }
    result.notes.push(`mix of ${mix.length} queries in ${kinds.length} kinds, limit ${PAGE}, first and second pages`);
    result.notes.push(`alone (one connection, median): ${alone.join('; ')}`);
    if (cpu) result.notes.push(cpu);
    result.notes.push(`each kind alone at ${ctx.connections(50)} connections for ${PER_KIND_SECONDS} s: ${underLoad.join('; ')}`);
    // the budget table's read baseline: one indexed page of the same table, unfiltered.
    return withBareCeiling(ctx, result, 'inspections-page', 'inspections-filtered', () => Promise.resolve(cookie), 'unfiltered: the ceiling of a page of the table, not of each filter');
  },
};
