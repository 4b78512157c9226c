/**
 * The bare ceiling of a result in one shape (types.ts `Ceiling`), for the table's columns and
 * results.json: a scenario reports its baseline either as `throughputBaseline` (the same load on
 * a bare route, measured in the same run) or as `baseline` (the same work done bare and timed);
 * this turns either into the bare figure and the product's ratio to it.
 */
import { num } from './table.js';
import type { Ceiling, ScenarioResult } from './types.js';

const ratioOf = (a: number, b: number) => Math.round((a / b) * 10_000) / 10_000;

export function ceilingOf(result: ScenarioResult | null): Ceiling | null {
  if (!result) return null;
  const t = result.throughputBaseline;
  if (t && t.throughput > 0) {
    return {
      kind: 'throughput',
      description: t.description,
      unit: result.unit,
      bare: t.throughput,
      product: result.throughput,
      ratio: ratioOf(result.throughput, t.throughput),
      bareP99Ms: t.p99Ms,
      p99Ratio: t.p99Ms > 0 && result.latencyMs.p99 > 0 ? ratioOf(result.latencyMs.p99, t.p99Ms) : null,
      rssRiseRatio: null,
    };
  }
  const b = result.baseline;
  if (b && b.baselineSeconds > 0) {
    const rss = b.productRssRiseMb !== undefined && b.baselineRssRiseMb !== undefined && b.baselineRssRiseMb > 0;
    return {
      kind: 'time',
      description: b.description,
      unit: 's',
      bare: b.baselineSeconds,
      product: b.productSeconds,
      ratio: ratioOf(b.productSeconds, b.baselineSeconds),
      bareP99Ms: null,
      p99Ratio: null,
      rssRiseRatio: rss ? ratioOf(b.productRssRiseMb ?? 0, b.baselineRssRiseMb ?? 1) : null,
    };
  }
  return null;
}

/** The table's cells: the bare figure, the ratio, the bare p99 and the p99 ratio. */
export function ceilingCells(ceiling: Ceiling | null): [string, string, string, string] {
  if (!ceiling) return ['-', '-', '-', '-'];
  if (ceiling.kind === 'throughput') {
    return [
      `${num(ceiling.bare)} ${ceiling.unit}`,
      // As the budget table words it: "at least 80% of the baseline's throughput" (one decimal: 79.6% must not read 80%).
      `${num(ceiling.ratio * 100, 1)}% thr`,
      num(ceiling.bareP99Ms, 2),
      ceiling.p99Ratio === null ? '-' : `${num(ceiling.p99Ratio, 2)}x`,
    ];
  }
  // As the budget table words it: "<= 3x", "<= 1.5x" the baseline's time.
  return [`${num(ceiling.bare, ceiling.bare < 10 ? 3 : 1)} s`, `${num(ceiling.ratio, 2)}x time`, '-', '-'];
}
