/**
 * The track network of the demo: stations along each section and the curve register
 * (consolidated_curve_details). Curves are laid out along real chainages between real
 * neighbouring stations, so km, station and SSE columns agree with each other.
 */
import type { Division, Line } from '../../../common/constants.js';
import type { consolidatedCurveDetails, stations } from '../schema.js';
import { Random, SEEDS } from './random.js';
import { CURVE_REMARKS, DIVISION_REFS, type DivisionRef, type SectionRef } from './reference-data.js';

/** The value the spec's SSE pickers drop as a placeholder; real registers contain a few. */
export const PLACEHOLDER_SSE = 'SSE';

type NewCurveRow = typeof consolidatedCurveDetails.$inferInsert;
type NewStationRow = typeof stations.$inferInsert;

/** A curve row with the columns later generators rely on made non-optional. */
export interface DemoCurve extends NewCurveRow {
  no: number;
  hkmCode: number;
  divisionRailway: Division;
  section: string;
  curveNumber: string;
  line: Line;
  kmFrom: number;
  metFrom: number;
  kmTo: number;
  metTo: number;
  length: number;
  station1: string;
  station2: string;
  den: string;
  aen: string;
  sse: string;
}

export interface DemoNetwork {
  stations: NewStationRow[];
  curves: DemoCurve[];
}

const MIN_CURVE_METRES = 150;
const MAX_CURVE_METRES = 900;
/** OHE masts stand about every 60 m; mast numbers restart at each kilometre post. */
const MAST_SPACING_METRES = 60;

export function mastNumber(km: number, met: number): string {
  return `${km}/${Math.floor(met / MAST_SPACING_METRES) + 1}`;
}

export function buildNetwork(): DemoNetwork {
  const rng = new Random(SEEDS.network);
  const network: DemoNetwork = { stations: [], curves: [] };
  for (const division of DIVISION_REFS) {
    const divisionCurves: DemoCurve[] = [];
    for (const section of division.sections) {
      const stationOffsets = placeStations(rng, section);
      section.stations.forEach((station, index) => {
        network.stations.push({
          no: index + 1,
          stationName: station.name,
          stationCode: station.code,
          section: section.name,
          divisionRailway: division.division,
        });
      });
      divisionCurves.push(...layCurves(rng, division, section, stationOffsets, divisionCurves.length));
    }
    // A handful of register rows where the SSE was never filled in properly.
    for (const curve of rng.sample(divisionCurves, 3)) curve.sse = PLACEHOLDER_SSE;
    network.curves.push(...divisionCurves);
  }
  assertUniqueKeys(network.curves);
  return network;
}

/** Distance of each station from the first one, in metres. */
function placeStations(rng: Random, section: SectionRef): number[] {
  const [minKm, maxKm] = section.stationSpacingKm;
  const offsets = [0];
  for (let i = 1; i < section.stations.length; i++) {
    offsets.push((offsets[i - 1] ?? 0) + rng.int(minKm * 100, maxKm * 100) * 10);
  }
  return offsets;
}

function layCurves(
  rng: Random,
  division: DivisionRef,
  section: SectionRef,
  stationOffsets: readonly number[],
  curvesSoFar: number,
): DemoCurve[] {
  const sectionLength = stationOffsets[stationOffsets.length - 1] ?? 0;
  // One slot per curve site keeps sites apart without any overlap checks.
  const slot = sectionLength / section.curveSites;
  const numbering = curveNumbering(rng, section);
  const rows: DemoCurve[] = [];
  for (let site = 0; site < section.curveSites; site++) {
    const length = rng.int(MIN_CURVE_METRES / 10, MAX_CURVE_METRES / 10) * 10;
    const room = Math.max(slot - length - 200, 1);
    const offset = Math.round((site * slot + 100 + rng.float(0, room)) / 5) * 5;
    const start = section.startKm * 1000 + offset;
    const gap = Math.max(0, stationOffsets.findLastIndex((o) => o <= offset));
    const station1 = section.stations[Math.min(gap, section.stations.length - 2)];
    const station2 = section.stations[Math.min(gap + 1, section.stations.length - 1)];
    if (!station1 || !station2) throw new Error(`Section ${section.name} needs at least two stations`);
    const sse = section.sses[Math.floor((offset / sectionLength) * section.sses.length)] ?? section.sses[0] ?? PLACEHOLDER_SSE;
    const [minDegree, maxDegree] = section.degreeRange;
    const degree = (Math.round(rng.float(minDegree, maxDegree) * 4) / 4).toFixed(2);
    const curveNumber = numbering(start, start + length);
    const comments = rng.chance(0.06) ? rng.pick(CURVE_REMARKS) : null;

    for (const line of linesAtSite(rng, division)) {
      // The Down track's curve is surveyed separately: it starts and ends a few metres apart.
      const shift = line === 'Down' ? rng.int(-3, 3) * 5 : 0;
      const lineLength = line === 'Down' ? clamp(length + rng.int(-2, 2) * 5, MIN_CURVE_METRES, MAX_CURVE_METRES) : length;
      const from = start + shift;
      const to = from + lineLength;
      const no = curvesSoFar + rows.length + 1;
      rows.push({
        no,
        hkmCode: division.hkmCodeBase + no - 1,
        divisionRailway: division.division,
        section: section.name,
        curveNumber,
        line,
        kmFrom: Math.floor(from / 1000),
        metFrom: from % 1000,
        kmTo: Math.floor(to / 1000),
        metTo: to % 1000,
        length: lineLength,
        station1: station1.name,
        station2: station2.name,
        degree,
        den: section.den,
        aen: section.aen,
        sse,
        comments,
      });
    }
  }
  return rows;
}

function linesAtSite(rng: Random, division: DivisionRef): Line[] {
  if (!division.doubleLine) return ['Single'];
  if (rng.chance(0.82)) return ['Up', 'Down'];
  return [rng.pick(['Up', 'Down'] as const)];
}

/** Each section keeps one numbering habit, as registers inherited from different surveys do. */
function curveNumbering(rng: Random, section: SectionRef): (startMetres: number, endMetres: number) => string {
  switch (section.curveNumberStyle) {
    case 'km-pole':
      return (startMetres, endMetres) => {
        const [kmFrom, metFrom] = [Math.floor(startMetres / 1000), startMetres % 1000];
        const [kmTo, metTo] = [Math.floor(endMetres / 1000), endMetres % 1000];
        const first = mastNumber(kmFrom, metFrom);
        const last = Math.floor(metTo / MAST_SPACING_METRES) + 1;
        return kmTo === kmFrom ? `${first}-${last}` : `${first}-${kmTo}/${last}`;
      };
    case 'lettered': {
      // Curves found by a later survey were slotted in as '12A' after curve 12.
      let n = rng.int(0, 30);
      let lastWasInserted = true;
      return () => {
        if (!lastWasInserted && rng.chance(0.25)) {
          lastWasInserted = true;
          return `${n}A`;
        }
        lastWasInserted = false;
        n += 1;
        return String(n);
      };
    }
    case 'plain': {
      let n = rng.int(0, 40);
      return () => {
        n += rng.chance(0.15) ? 2 : 1;
        return String(n);
      };
    }
  }
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

/** The database would reject duplicates anyway; failing here names the culprit. */
function assertUniqueKeys(curves: readonly DemoCurve[]): void {
  const keys = new Set<string>();
  const codes = new Set<number>();
  for (const curve of curves) {
    const key = `${curve.section}|${curve.curveNumber}|${curve.line}`;
    if (keys.has(key)) throw new Error(`Duplicate demo curve ${key}`);
    if (codes.has(curve.hkmCode)) throw new Error(`Duplicate demo HKM code ${curve.hkmCode}`);
    keys.add(key);
    codes.add(curve.hkmCode);
  }
}
