/**
 * Timed pieces of work made one at a time (reports, exports) and what every such scenario keeps
 * about them: statuses, problems, the ids it saw (a piece made anew must answer a new one), and
 * their figures (each run's time, the median, first byte, size, the server's RSS and CPU) as one
 * note built from the runs, not a sentence written per scenario.
 */
import { type Figure, median, note, round } from './stats.js';

/** One timed run with the server's figures around it (lib/records.ts withServerFigures). */
export interface TimedRun {
  ms: number;
  firstByteMs: number;
  bytes: number;
  rssBeforeMb: number;
  rssPeakMb: number;
  serverCpu: number | null;
  databaseCpu: number | null;
}

export const mib = (bytes: number) => bytes / 1024 / 1024;
/** Each run's figure in the order run, `a / b / c`. */
export const series = (values: readonly number[], decimals: number, signed = false) =>
  values.map((v) => `${signed && v >= 0 ? '+' : ''}${round(v, decimals)}`).join(' / ');
export const rssRise = (run: { rssPeakMb: number; rssBeforeMb: number }) => Math.max(0, run.rssPeakMb - run.rssBeforeMb);
/** The median of the known values; null when none is known (e.g. PostgreSQL's CPU on PGlite). */
export function knownMedian<T>(runs: readonly T[], pick: (run: T) => number | null): number | null {
  const known = runs.flatMap((run) => {
    const value = pick(run);
    return value === null ? [] : [value];
  });
  return known.length ? median(known) : null;
}

/** The runs' figures as one note; `extra` goes between the times and the memory. */
export function runsNote(label: string, runs: readonly TimedRun[], extra: Readonly<Record<string, Figure>> = {}): string {
  if (runs.length === 0) return `${label}: no successful run`;
  const cpu = (pick: (run: TimedRun) => number | null) => {
    const value = knownMedian(runs, pick);
    return value === null ? null : `${round(value, 2)} s`;
  };
  return note(label, {
    '': `${series(runs.map((r) => r.ms / 1000), 2)} s, median ${round(median(runs.map((r) => r.ms)) / 1000, 2)} s`,
    'first byte (median)': `${round(median(runs.map((r) => r.firstByteMs)), 0)} ms`,
    size: `${round(mib(median(runs.map((r) => r.bytes))), 2)} MB`,
    ...extra,
    'server RSS before': `${series(runs.map((r) => r.rssBeforeMb), 0)} MB`,
    peak: `${series(runs.map((r) => r.rssPeakMb), 0)} MB`,
    rise: `${series(runs.map(rssRise), 1, true)} MB`,
    'CPU (median) server': cpu((r) => r.serverCpu),
    PostgreSQL: cpu((r) => r.databaseCpu),
  });
}

/** Statuses and problems of a timed scenario, kept the same way by each. */
export class RunBook {
  readonly statusCodes: Record<string, number> = {};
  readonly problems: string[] = [];
  /** Every id answered so far (reports): one made anew must answer a new one. */
  readonly seen = new Set<string>();

  status(code: number): void {
    this.statusCodes[String(code)] = (this.statusCodes[String(code)] ?? 0) + 1;
  }

  /** Counts an id; one answered again is a problem (the piece was not made anew). */
  expectNew(id: string, label: string): void {
    if (this.seen.has(id)) this.problems.push(`${label}: answered ${id} again: not made anew`);
    this.seen.add(id);
  }

  /** Runs one measured piece; a failure is a problem, not the end of the scenario. */
  async attempt<T>(work: () => Promise<T>): Promise<T | null> {
    try {
      return await work();
    } catch (error) {
      this.problems.push(error instanceof Error ? error.message : String(error));
      return null;
    }
  }

  /** The first few problems, for the notes. */
  errorNotes(): string[] {
    return this.problems.slice(0, 5).map((message) => `error: ${message}`);
  }
}
