/**
 * The machine rollout rule (issue 13): what a curve record's stage entry means, which figures
 * of a division can be, and how the machine value inputs read what is typed.
 */
import { describe, expect, it } from 'vitest';
import { machineValueOf, type RolloutFigures, rolloutFiguresProblem, stageEntry } from './rollout.js';

describe('stageEntry', () => {
  it('reads a date in every format the sheets use as done on that day', () => {
    const cases: Array<[string, string]> = [
      ['14.03.2025', '2025-03-14'],
      ['14-03-2025', '2025-03-14'],
      ['14/03/2025', '2025-03-14'],
      ['2025-03-14', '2025-03-14'],
      ['14-Mar-2025', '2025-03-14'],
      // Single-digit days and months, as typed in a sheet.
      ['4.3.2025', '2025-03-04'],
      ['04/3/2025', '2025-03-04'],
      ['1-Apr-2025', '2025-04-01'],
      // Month names in any case.
      ['14-mar-2025', '2025-03-14'],
      ['14-MAR-2025', '2025-03-14'],
      ['31-Dec-2024', '2024-12-31'],
      ['01-Jan-2026', '2026-01-01'],
      // Day first: 05/01 is the 5th of January, not the 1st of May.
      ['05/01/2025', '2025-01-05'],
      ['12.11.2025', '2025-11-12'],
      // A leap day that exists.
      ['29.02.2024', '2024-02-29'],
      ['2024-02-29', '2024-02-29'],
      ['29-Feb-2024', '2024-02-29'],
      ['31.01.2025', '2025-01-31'],
      ['30.04.2025', '2025-04-30'],
    ];
    for (const [entry, on] of cases) expect(stageEntry(entry), entry).toEqual({ done: true, on });
  });

  it('ignores the whitespace around an entry', () => {
    expect(stageEntry('  14.03.2025  ')).toEqual({ done: true, on: '2025-03-14' });
    expect(stageEntry('\t2025-03-14\n')).toEqual({ done: true, on: '2025-03-14' });
    expect(stageEntry(' 14-Mar-2025 ')).toEqual({ done: true, on: '2025-03-14' });
    expect(stageEntry('  Done ')).toEqual({ done: true, on: null });
    expect(stageEntry(' yes')).toEqual({ done: true, on: null });
  });

  it("reads 'Done', 'Completed', 'Complete' and 'Yes' in any case as done without a date", () => {
    for (const entry of ['Done', 'done', 'DONE', 'dOnE', 'Completed', 'completed', 'COMPLETED', 'Complete', 'complete', 'Yes', 'yes', 'YES']) {
      expect(stageEntry(entry), entry).toEqual({ done: true, on: null });
    }
  });

  it("reads 'Pending', blank and missing entries as not done", () => {
    for (const entry of ['Pending', 'pending', 'PENDING', ' Pending ', '', ' ', '   ', '\t']) {
      expect(stageEntry(entry), JSON.stringify(entry)).toEqual({ done: false, on: null });
    }
    expect(stageEntry(null)).toEqual({ done: false, on: null });
    expect(stageEntry(undefined)).toEqual({ done: false, on: null });
  });

  it('reads any other text as not done', () => {
    for (const entry of ['No', 'N/A', 'NA', 'In progress', 'Not done', 'Y', 'D', 'Donee', 'Done on 14.03.2025', 'Completed?', '-', '0', 'TBD', 'done.']) {
      expect(stageEntry(entry), entry).toEqual({ done: false, on: null });
    }
  });

  it('reads impossible dates and other date-like typos as not done', () => {
    for (const entry of [
      '31.02.2025',
      '29.02.2025',
      '2025-02-29',
      '2025-02-30',
      '29-Feb-2025',
      '30-Feb-2025',
      '31.04.2025',
      '31-Jun-2025',
      '32.01.2025',
      '00.01.2025',
      '14.13.2025',
      '14.00.2025',
      '2025-13-01',
      '2025-00-10',
      '2025-01-00',
      '2025-01-32',
      '14-Xyz-2025',
      // A two-digit year, a missing year, a year-first slash date: not a format the sheets use.
      '14.03.25',
      '14.03',
      '2025/03/14',
      '2025-3-14',
      '14032025',
    ]) {
      expect(stageEntry(entry), entry).toEqual({ done: false, on: null });
    }
  });
});

describe('rolloutFiguresProblem', () => {
  const ok: RolloutFigures = { scope: 10, foundationCompleted: 8, machinesInstalled: 5, machinesCommissioned: 3 };

  it('accepts figures in order, equal figures, zeros and the largest figure', () => {
    expect(rolloutFiguresProblem(ok)).toBeNull();
    expect(rolloutFiguresProblem({ scope: 5, foundationCompleted: 5, machinesInstalled: 5, machinesCommissioned: 5 })).toBeNull();
    expect(rolloutFiguresProblem({ scope: 0, foundationCompleted: 0, machinesInstalled: 0, machinesCommissioned: 0 })).toBeNull();
    expect(rolloutFiguresProblem({ scope: 7, foundationCompleted: 0, machinesInstalled: 0, machinesCommissioned: 0 })).toBeNull();
    expect(rolloutFiguresProblem({ scope: 100_000, foundationCompleted: 100_000, machinesInstalled: 99_999, machinesCommissioned: 0 })).toBeNull();
  });

  it('names the field that is not a whole number from 0 to 100000', () => {
    const fields = ['scope', 'foundationCompleted', 'machinesInstalled', 'machinesCommissioned'] as const;
    for (const field of fields) {
      for (const bad of [1.5, -1, 100_001, Number.NaN, Number.POSITIVE_INFINITY]) {
        // The other figures are possible whatever the bad one is.
        const figures: RolloutFigures = { scope: 100_000, foundationCompleted: 0, machinesInstalled: 0, machinesCommissioned: 0 };
        figures[field] = bad;
        const problem = rolloutFiguresProblem(figures);
        expect(problem?.field, `${field}=${bad}`).toBe(field);
        expect(problem?.message, `${field}=${bad}`).toMatch(/\S/);
      }
    }
  });

  it('names the stage that has more curves than the stage before it', () => {
    expect(rolloutFiguresProblem({ ...ok, foundationCompleted: 11 })?.field).toBe('foundationCompleted');
    expect(rolloutFiguresProblem({ ...ok, machinesInstalled: 9 })?.field).toBe('machinesInstalled');
    expect(rolloutFiguresProblem({ ...ok, machinesCommissioned: 6 })?.field).toBe('machinesCommissioned');
    expect(rolloutFiguresProblem({ scope: 0, foundationCompleted: 1, machinesInstalled: 0, machinesCommissioned: 0 })?.field).toBe('foundationCompleted');
    expect(rolloutFiguresProblem({ scope: 3, foundationCompleted: 3, machinesInstalled: 3, machinesCommissioned: 4 })?.field).toBe('machinesCommissioned');
    const message = rolloutFiguresProblem({ ...ok, machinesInstalled: 9 })?.message ?? '';
    expect(message).toContain('9');
    expect(message).toContain('8');
  });
});

describe('machineValueOf', () => {
  it('reads a whole number, minimum 0; anything non-numeric is 0', () => {
    const cases: Array<[string, number]> = [
      ['abc', 0],
      ['12', 12],
      ['-3', 0],
      ['4.7', 4],
      ['', 0],
      ['0', 0],
      [' 7 ', 7],
      ['   ', 0],
      ['100000', 100_000],
    ];
    for (const [input, value] of cases) expect(machineValueOf(input), JSON.stringify(input)).toBe(value);
  });
});
