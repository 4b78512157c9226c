/** Nearest-rank percentile of values already sorted ascending; 0 for no values. */
function percentile(sorted: ArrayLike<number>, p: number): number {
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))] ?? 0;
}

export function summarizeLatencies(samplesMs: readonly number[]) {
  const sorted = Float64Array.from(samplesMs).sort();
  const total = sorted.reduce((sum, v) => sum + v, 0);
  return {
    p50: round(percentile(sorted, 50)),
    p90: round(percentile(sorted, 90)),
    p99: round(percentile(sorted, 99)),
    max: round(sorted.at(-1) ?? 0),
    mean: round(sorted.length ? total / sorted.length : 0),
  };
}

export type LatencySummary = ReturnType<typeof summarizeLatencies>;

export function round(value: number, decimals = 2): number {
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor;
}

export const countNon2xx = (statusCodes: Readonly<Record<string, number>>) =>
  Object.entries(statusCodes).reduce((sum, [code, count]) => (code.startsWith('2') ? sum : sum + count), 0);

export const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

export type Figure = string | number | null | undefined;

export function note(label: string, figures: Readonly<Record<string, Figure>>): string {
  const parts = Object.entries(figures)
    .filter((entry): entry is [string, string | number] => entry[1] !== null && entry[1] !== undefined)
    .map(([name, value]) => (name ? `${name} ${value}` : String(value)));
  return `${label}: ${parts.join('; ')}`;
}
