import { DIVISIONS } from '../../common/constants.js';
import { addDays } from '../../server/db/seed/calendar.js';
import { inTurn } from '../lib/load.js';
import { eachAlone, loadScenario } from '../lib/load-row.js';
import type { InspectionLog } from '../../common/schemas/inspection.js';
import { inspectionPage, kb, medianMs, READ_BUDGET } from '../lib/records.js';
import type { ScenarioContext } from '../lib/types.js';

const PAGE = 50;

const q = (params: Record<string, string | number>) => new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString();

function distinct<T>(items: readonly T[], key: (item: T) => string, count: number): T[] {
  const byKey = new Map<string, T>();
  for (const item of items) if (!byKey.has(key(item))) byKey.set(key(item), item);
  return [...byKey.values()].slice(0, count);
}

type Kind = ReturnType<typeof buildKinds>[number];

function buildKinds(sample: readonly InspectionLog[], older: readonly InspectionLog[]) {
  const pages = (base: Record<string, string>, offsets = [0, PAGE]) => offsets.map((offset) => q({ limit: PAGE, offset, ...base }));
  // Recent windows and windows a year or two back: newest-first plans differ a lot between them.
  const dated = [...distinct(sample, (l) => l.date.slice(0, 7), 2), ...distinct(older, (l) => l.date.slice(0, 7), 4)];
  return [
    { name: 'division', queries: DIVISIONS.flatMap((division) => pages({ division })) },
    {
      name: 'type+dates',
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

const walking = (queries: readonly string[]) => inTurn(queries.map((query) => `/api/inspections?${query}`));

async function aloneNote(ctx: ScenarioContext, cookie: string, kinds: readonly Kind[]): Promise<string> {
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
    const ms = await medianMs(Math.max(7, kind.queries.length), async () => (await inspectionPage(ctx, cookie, kind.queries[turn++ % kind.queries.length] ?? '')).ms);
    alone.push(`${kind.name} ${ms} ms (${kind.queries.length} queries, ~${Math.round(total / kind.queries.length)} matches, ${kb(bytes / kind.queries.length)})`);
  }
  return `alone (one connection, median): ${alone.join('; ')}`;
}

// The records view's filters over the generated records, interleaved; then each kind alone, so the notes say which is slow (README).
export const inspectionsFiltered = loadScenario({
  name: 'inspections-filtered',
  description:
    'GET /api/inspections with a mix of filters (division, type+dates, technician, section+curve, q, division+type), 50 connections; bare ceiling: one indexed page of inspection_logs',
  budget: READ_BUDGET,
  dataset: 'records',
  as: 'Admin',
  ceiling: 'inspections-page',
  remark: 'unfiltered: the ceiling of a page of the table, not of each filter',
  cpu: true,
  async prepare(ctx, cookie) {
    const sample = (await inspectionPage(ctx, cookie, q({ limit: 500, offset: 2_000 }))).logs;
    if (sample.length < 100) throw new Error(`expected 500 records at offset 2000 to pick filter values from, got ${sample.length}`);
    const listTotal = (await inspectionPage(ctx, cookie, q({ limit: 1, offset: 0 }))).total;
    // Dates from across the older part of the list (a few hundred records, some 30 % to 90 % down).
    const older: InspectionLog[] = [];
    for (const share of [0.3, 0.5, 0.7, 0.9]) {
      older.push(...(await inspectionPage(ctx, cookie, q({ limit: 100, offset: Math.floor(listTotal * share) }))).logs);
    }
    const kinds = buildKinds(sample, older);
    const alone = await aloneNote(ctx, cookie, kinds);
    const mix = Array.from({ length: Math.max(...kinds.map((k) => k.queries.length)) }, (_, i) => kinds.flatMap((k) => k.queries[i] ?? [])).flat();
    return {
      // The probes above run one at a time; nothing is queued on the server when the load starts.
      load: { ...walking(mix), path: '/api/inspections?<filters>' },
      notes: [`mix of ${mix.length} queries in ${kinds.length} kinds, limit ${PAGE}, first and second pages`, alone],
      async after() {
        const loads = kinds.map((kind) => ({
          label: kind.name,
          load: { ...walking(kind.queries), headers: { cookie } },
          // Requests the last phase left in flight finish first (on PGlite they queue for seconds).
          before: () => inspectionPage(ctx, cookie, kind.queries[0] ?? ''),
        }));
        return [await eachAlone(ctx, loads, null)];
      },
    };
  },
});
