/**
 * The scale seed's curves: the register as it is (every record hangs on one of its curves), and
 * a top-up to a zone's size that adds curves to the existing sections as a later survey would.
 */
import type { Random } from '../random.js';
import type { CurveRef, CurveValues, SqlClient } from './columns.js';

/** How the records split between divisions: RTM has most machines, JBP the fewest. */
export const DIVISION_WEIGHTS: Record<string, number> = {
  'RTM/WR': 34,
  'BRC/WR': 24,
  'FZR/NR': 18,
  'NDLS/NR': 14,
  'JBP/WCR': 10,
};

export async function readCurves(client: SqlClient): Promise<CurveRef[]> {
  const rows = await client.query<{
    division_railway: string;
    section: string;
    curve_number: string;
    line: string;
    station1: string | null;
    station2: string | null;
    sse: string | null;
    km_from: number | null;
    met_from: number | null;
    km_to: number | null;
    met_to: number | null;
  }>(
    `select division_railway, section, curve_number, line, station1, station2, sse, km_from, met_from, km_to, met_to
       from consolidated_curve_details order by id`,
  );
  return rows.map((r) => ({
    divisionRailway: r.division_railway,
    section: r.section,
    curveNumber: r.curve_number,
    line: r.line,
    station1: r.station1,
    station2: r.station2,
    sse: r.sse,
    kmFrom: r.km_from,
    metFrom: r.met_from,
    kmTo: r.km_to,
    metTo: r.met_to,
  }));
}

interface SectionTemplate {
  division: string;
  section: string;
  stationPairs: Array<[string | null, string | null]>;
  sses: Array<string | null>;
  den: string | null;
  aen: string | null;
  single: boolean;
  minKm: number;
  maxKm: number;
}

export async function topUpCurves(client: SqlClient, existing: readonly CurveRef[], target: number, rng: Random): Promise<CurveValues[]> {
  const need = target - existing.length;
  if (need <= 0) return [];
  const meta = await client.query<{ den: string | null; aen: string | null; section: string; max_code: number | null; max_no: number | null }>(
    `select c.section, min(c.den) as den, min(c.aen) as aen,
            (select max(hkm_code) from consolidated_curve_details) as max_code,
            (select max(no) from consolidated_curve_details) as max_no
       from consolidated_curve_details c group by c.section`,
  );
  const bySection = new Map<string, SectionTemplate>();
  for (const curve of existing) {
    let t = bySection.get(curve.section);
    if (!t) {
      const m = meta.find((x) => x.section === curve.section);
      t = {
        division: curve.divisionRailway,
        section: curve.section,
        stationPairs: [],
        sses: [],
        den: m?.den ?? null,
        aen: m?.aen ?? null,
        single: false,
        minKm: Number.POSITIVE_INFINITY,
        maxKm: 0,
      };
      bySection.set(curve.section, t);
    }
    t.stationPairs.push([curve.station1, curve.station2]);
    t.sses.push(curve.sse);
    if (curve.line === 'Single') t.single = true;
    if (curve.kmFrom !== null) {
      t.minKm = Math.min(t.minKm, curve.kmFrom);
      t.maxKm = Math.max(t.maxKm, curve.kmTo ?? curve.kmFrom);
    }
  }
  const sectionsByDivision = new Map<string, SectionTemplate[]>();
  for (const t of bySection.values()) {
    if (!Number.isFinite(t.minKm)) [t.minKm, t.maxKm] = [0, 100];
    const list = sectionsByDivision.get(t.division) ?? [];
    list.push(t);
    sectionsByDivision.set(t.division, list);
  }
  const divisions = [...sectionsByDivision.keys()];
  const taken = new Set(existing.map((c) => `${c.section}|${c.curveNumber}|${c.line}`));
  const counters = new Map<string, number>();
  let hkmCode = Math.max(0, ...meta.map((m) => Number(m.max_code ?? 0)));
  let no = Math.max(0, ...meta.map((m) => Number(m.max_no ?? 0)));
  const rows: CurveValues[] = [];
  while (rows.length < need) {
    const division = rng.weighted(divisions.map((d) => [d, DIVISION_WEIGHTS[d] ?? 10] as const));
    const template = rng.pick(sectionsByDivision.get(division) ?? []);
    // New sites are numbered on from the register's own numbers, as a later survey would.
    const n = (counters.get(template.section) ?? 100) + 1;
    counters.set(template.section, n);
    const curveNumber = String(n);
    const length = rng.int(15, 90) * 10;
    const start = rng.int(template.minKm * 1000, Math.max(template.minKm * 1000, template.maxKm * 1000));
    const lines = template.single ? ['Single'] : rng.chance(0.82) ? ['Up', 'Down'] : [rng.pick(['Up', 'Down'])];
    const [station1, station2] = rng.pick(template.stationPairs);
    const sse = rng.pick(template.sses);
    const degree = (Math.round(rng.float(0.5, 6) * 4) / 4).toFixed(2);
    for (const line of lines) {
      if (rows.length >= need) break;
      const key = `${template.section}|${curveNumber}|${line}`;
      if (taken.has(key)) continue;
      taken.add(key);
      const from = start + (line === 'Down' ? rng.int(-3, 3) * 5 : 0);
      const to = from + length;
      rows.push({
        no: ++no,
        hkmCode: ++hkmCode,
        divisionRailway: template.division,
        section: template.section,
        curveNumber,
        line,
        kmFrom: Math.floor(from / 1000),
        metFrom: from % 1000,
        kmTo: Math.floor(to / 1000),
        metTo: to % 1000,
        length,
        station1,
        station2,
        degree,
        den: template.den,
        aen: template.aen,
        sse,
      });
    }
  }
  return rows;
}
