import type { Budget, DatabaseKind, ScenarioResult, Verdict } from './types.js';

const DATABASE_NAMES: Record<DatabaseKind, string> = { pglite: 'PGlite', postgres: 'PostgreSQL' };

/** The limits of a budget that a result breaks, as short phrases ('p99 61.2 > 50 ms'). */
function breaches(budget: Budget, result: ScenarioResult, peakRssMb: number | null): { checked: string[]; broken: string[] } {
  const checked: string[] = [];
  const broken: string[] = [];
  const check = (label: string, ok: boolean) => (ok ? checked : broken).push(label);
  if (budget.maxP99Ms !== undefined) {
    const p99 = result.latencyMs.p99;
    check(`p99 ${p99} ${p99 <= budget.maxP99Ms ? '<=' : '>'} ${budget.maxP99Ms} ms`, p99 <= budget.maxP99Ms);
  }
  if (budget.minThroughput !== undefined) {
    const t = result.throughput;
    check(`${t} ${t >= budget.minThroughput ? '>=' : '<'} ${budget.minThroughput} ${result.unit}`, t >= budget.minThroughput);
  }
  if (budget.maxDurationSeconds !== undefined) {
    const d = result.durationSeconds;
    check(`${d} s ${d <= budget.maxDurationSeconds ? '<=' : '>'} ${budget.maxDurationSeconds} s`, d <= budget.maxDurationSeconds);
  }
  if (budget.maxRatioToBaseline !== undefined) {
    const b = result.baseline;
    if (!b || !(b.baselineSeconds > 0)) broken.push('no bare baseline was measured');
    else {
      const ratio = b.productSeconds / b.baselineSeconds;
      const ok = ratio <= budget.maxRatioToBaseline;
      check(
        `${b.productSeconds} s vs bare baseline ${b.baselineSeconds} s (${b.description}) = ${ratio.toFixed(2)}x ${ok ? '<=' : '>'} ${budget.maxRatioToBaseline}x`,
        ok,
      );
    }
  }
  if (budget.maxRssRatioToBaseline !== undefined) {
    const b = result.baseline;
    const product = b?.productRssRiseMb;
    const bare = b?.baselineRssRiseMb;
    if (!b || product === undefined || bare === undefined || !(bare > 0)) broken.push('no RSS rise of a bare baseline was measured');
    else {
      const ratio = product / bare;
      const ok = ratio <= budget.maxRssRatioToBaseline;
      check(
        `peak RSS rise ${product} MB vs bare baseline ${bare} MB = ${ratio.toFixed(2)}x ${ok ? '<=' : '>'} ${budget.maxRssRatioToBaseline}x`,
        ok,
      );
    }
  }
  if (budget.minThroughputRatioToBaseline !== undefined) {
    const b = result.throughputBaseline;
    if (!b || !(b.throughput > 0)) broken.push('no bare baseline throughput was measured');
    else {
      const ratio = result.throughput / b.throughput;
      const ok = ratio >= budget.minThroughputRatioToBaseline;
      check(
        `${result.throughput} ${result.unit} = ${(ratio * 100).toFixed(0)}% of the bare baseline's ${b.throughput} (${b.description}; its p99 ${b.p99Ms} ms) ` +
          `${ok ? '>=' : '<'} ${(budget.minThroughputRatioToBaseline * 100).toFixed(0)}%`,
        ok,
      );
    }
  }
  if (budget.maxPeakRssMb !== undefined) {
    if (peakRssMb === null) broken.push('peak RSS could not be read');
    else {
      const mb = Math.round(peakRssMb);
      check(`peak RSS ${mb} ${mb <= budget.maxPeakRssMb ? '<=' : '>'} ${budget.maxPeakRssMb} MB`, peakRssMb <= budget.maxPeakRssMb);
    }
  }
  return { checked, broken };
}

/**
 * Applies a budget to a result. A budget defined for another database or concurrency is
 * not applicable; its figures are still compared, for information, in the detail.
 */
export function judge(
  budget: Budget | undefined,
  result: ScenarioResult | null,
  peakRssMb: number | null,
  database: DatabaseKind,
  cpus: number,
): Verdict {
  if (!budget) return { kind: 'none' };
  if (!result) return { kind: 'not-applicable', detail: 'no result' };
  const { checked, broken } = breaches(budget, result, peakRssMb);
  const b = result.baseline;
  const t = result.throughputBaseline;
  // A budget on an absolute figure still prints the baseline beside it (docs/architecture.md, 'Budgets').
  const beside =
    (b && budget.maxRatioToBaseline === undefined && b.baselineSeconds > 0
      ? `; bare baseline ${b.baselineSeconds} s (${b.description}), product ${b.productSeconds} s = ${(b.productSeconds / b.baselineSeconds).toFixed(2)}x it`
      : '') +
    (t && budget.minThroughputRatioToBaseline === undefined && t.throughput > 0
      ? `; bare baseline ${t.throughput} ${result.unit} (${t.description}), product ${result.throughput} = ${((result.throughput / t.throughput) * 100).toFixed(0)}% of it`
      : '');
  const comparison = [...broken, ...checked].join(', ') + beside;
  if (budget.database && budget.database !== database) {
    return {
      kind: 'not-applicable',
      detail: `budget is for ${DATABASE_NAMES[budget.database]}; on ${DATABASE_NAMES[database]}, for information: ${comparison}`,
    };
  }
  if (budget.cpus !== undefined && cpus !== budget.cpus) {
    return {
      kind: 'not-applicable',
      detail: `budget is for ${budget.cpus} CPUs, this machine has ${cpus}; for information: ${comparison}`,
    };
  }
  if (budget.connections !== undefined && result.connections !== budget.connections) {
    return {
      kind: 'not-applicable',
      detail: `budget is at ${budget.connections} connections, this run used ${String(result.connections)}; for information: ${comparison}`,
    };
  }
  return broken.length > 0 ? { kind: 'fail', detail: comparison } : { kind: 'pass', detail: comparison };
}

/** The short form for the table's budget column. */
export function verdictLabel(verdict: Verdict, budget: Budget | undefined, database: DatabaseKind): string {
  switch (verdict.kind) {
    case 'none':
      return '-';
    case 'pass':
      return 'pass';
    case 'fail':
      return 'FAIL';
    case 'not-applicable':
      if (budget?.database && budget.database !== database) return `n/a on ${DATABASE_NAMES[database]}`;
      return 'n/a';
  }
}
