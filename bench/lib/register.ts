/** The curve register as the scenarios drive it: CSV files of new curves in sections of the bench's own, the import, the list. */
import Papa from 'papaparse';
import { type Curve, curveListResponseSchema } from '../../common/schemas/curve.js';
import { type CurveField, importResultSchema, type ImportResult } from '../../common/schemas/register.js';
import { CURVE_COLUMNS } from '../../server/features/register/columns.js';
import { Random } from '../../server/db/seed/random.js';
import { DIVISION_WEIGHTS as SCALE_DIVISION_WEIGHTS } from '../../server/db/seed/scale/curves.js';
import { buildMultipart, type MultipartBody } from './multipart.js';
import { getParsed, parsedJson, timedFetch } from './records.js';
import type { ScenarioContext } from './types.js';

export const CSV_COLUMN = Object.fromEntries(CURVE_COLUMNS.map((c, i) => [c.field, i])) as Record<CurveField, number>;

const DIVISION_WEIGHTS = Object.entries(SCALE_DIVISION_WEIGHTS);
const DIVISION_CODES: Record<string, string> = { 'RTM/WR': 'RTM', 'BRC/WR': 'BRC', 'FZR/NR': 'FZR', 'NDLS/NR': 'DLI', 'JBP/WCR': 'JBP' };
const ROWS_PER_SECTION = 200;
const REMARKS = [
  'Lubricator shifted 20 m towards km post, check grease nozzle',
  'Near "LC gate 14", restricted access during monsoon',
  'Check rail present; guard rail on bridge approach',
  'Machine installed, commissioning pending',
  'Reverse curve, measure CoF at both ends',
];

export interface BenchCurveOptions {
  count: number;
  sectionPrefix: string;
  firstHkmCode: number;
  seed: number;
}

export function benchCurveRows(options: BenchCurveOptions): string[][] {
  const rng = new Random(options.seed);
  const rows: string[][] = [];
  for (let s = 1; rows.length < options.count; s++) {
    const division = rng.weighted(DIVISION_WEIGHTS);
    const code = DIVISION_CODES[division] ?? 'XX';
    const section = `${options.sectionPrefix}-${s}`;
    const single = rng.chance(0.2);
    const den = `Sr. DEN/${code}-${1 + (s % 3)}`;
    const aen = `AEN/${code}-${section}`;
    const stations = Array.from({ length: 8 }, (_, k) => `${code} Bench Halt ${s}-${k + 1}`);
    const sses = [`SSE/P.Way/${code}-${s}A`, `SSE/P.Way/${code}-${s}B`];
    let metres = rng.int(10, 400) * 1000;
    const lines = single ? ['Single'] : ['Up', 'Down'];
    for (let n = 1; n <= ROWS_PER_SECTION / lines.length && rows.length < options.count; n++) {
      const length = rng.int(15, 90) * 10;
      metres += rng.int(4, 30) * 100;
      const stationAt = Math.min(stations.length - 2, Math.floor((n * stations.length) / (ROWS_PER_SECTION / lines.length + 1)));
      const degree = (Math.round(rng.float(0.5, 6) * 4) / 4).toFixed(2);
      const remark = rng.chance(0.15) ? rng.pick(REMARKS) : '';
      for (const line of lines) {
        if (rows.length >= options.count) break;
        const from = metres + (line === 'Down' ? rng.int(-3, 3) * 5 : 0);
        const to = from + length;
        rows.push([
          String(rows.length + 1),
          String(options.firstHkmCode + rows.length),
          division,
          section,
          String(100 + n),
          line,
          String(Math.floor(from / 1000)),
          String(from % 1000),
          String(Math.floor(to / 1000)),
          String(to % 1000),
          String(length),
          stations[stationAt] ?? '',
          stations[stationAt + 1] ?? '',
          degree,
          den,
          aen,
          rng.pick(sses),
          remark,
        ]);
      }
    }
  }
  return rows;
}

export function curvesCsv(rows: readonly string[][]): string {
  return Papa.unparse({ fields: CURVE_COLUMNS.map((c) => c.header), data: rows as string[][] }, { newline: '\r\n' });
}

export function importForm(csv: string, fileName: string): MultipartBody {
  return buildMultipart([
    { name: 'type', value: 'curves' },
    { name: 'file', value: Buffer.from(csv, 'utf8'), filename: fileName, contentType: 'text/csv' },
  ]);
}

export async function postImport(ctx: ScenarioContext, cookie: string, form: MultipartBody, dryRun: boolean, timeoutMs = 600_000) {
  const init = { method: 'POST', headers: { cookie, 'content-type': form.contentType }, body: new Uint8Array(form.body) };
  const { status, ms, text } = await timedFetch(`${ctx.baseUrl}/api/import-excel${dryRun ? '?dryRun=true' : ''}`, init, timeoutMs);
  const parsed = status === 200 ? importResultSchema.safeParse(parsedJson(text)) : null;
  return { status, ms, result: parsed?.success ? parsed.data : null, text };
}

type ImportAnswer = Awaited<ReturnType<typeof postImport>>;

export function importMismatch(answer: ImportAnswer, expected: Partial<ImportResult>): string | null {
  if (answer.status !== 200) return `HTTP ${answer.status}: ${answer.text.slice(0, 300)}`;
  if (!answer.result) return `an answer that is not the import contract: ${answer.text.slice(0, 300)}`;
  const result = answer.result;
  const wrong = (Object.keys(expected) as (keyof ImportResult)[])
    .filter((key) => JSON.stringify(result[key]) !== JSON.stringify(expected[key]))
    .map((key) => `${key} ${JSON.stringify(result[key])} (expected ${JSON.stringify(expected[key])})`);
  if (result.rowErrors.length > 0) {
    const first = result.rowErrors[0];
    wrong.push(`${result.rowErrors.length} row errors, first: row ${first?.row}, ${first?.column}: ${first?.message}`);
  }
  return wrong.length > 0 ? wrong.join(', ') : null;
}

export async function curvePage(ctx: ScenarioContext, cookie: string, query: string): Promise<{ curves: Curve[]; total: number }> {
  return (await getParsed(ctx, `/api/consolidated-curves?${query}`, cookie, curveListResponseSchema, 60_000)).body;
}

export async function curveTotal(ctx: ScenarioContext, cookie: string): Promise<number> {
  return (await curvePage(ctx, cookie, 'limit=1')).total;
}
