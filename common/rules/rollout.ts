/**
 * Machine rollout (docs/functional-requirements.md, 'Machine dashboard (/machine-dashboard)'): a curve in scope for a lubricator goes through three
 * stages, foundation, machine installed and commissioned. Each curve record holds the sheet's
 * entry for each stage: the date it was done ('14.03.2025'), 'Done' where it was ticked off
 * without a date, or 'Pending'. This module says what counts as done, and which figures of a
 * division can be: no stage can have more curves than the one before it.
 */

/** A stage's sheet entry read: done or not, and the day it was done when the sheet says. */
export interface StageEntry {
  done: boolean;
  /** 'YYYY-MM-DD', or null when not done or done without a date. */
  on: string | null;
}

/** Words a sheet uses for a stage done without its date. Anything else that is not a date is not done. */
export const STAGE_DONE_WORDS = ['done', 'completed', 'complete', 'yes'] as const;
const DONE_WORDS: ReadonlySet<string> = new Set(STAGE_DONE_WORDS);

/** Day-first dates as the railway writes them (14.03.2025, 14-03-2025, 14/03/2025), ISO dates, and 14-Mar-2025. */
const DAY_FIRST = /^(\d{1,2})[./-](\d{1,2})[./-](\d{4})$/;
const ISO = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAY_MONTH_NAME = /^(\d{1,2})[\s-]([A-Za-z]{3})[a-z]*[\s-](\d{4})$/;
/** Month names as the sheets abbreviate them, January first. */
export const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

function isoDate(year: number, month: number, day: number): string | null {
  if (month < 1 || month > 12 || day < 1 || year < 1900 || year > 2999) return null;
  // Reject days a month does not have (31.02.2025): such an entry is a typo, not a date.
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (day > daysInMonth) return null;
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** The date a sheet entry names, as 'YYYY-MM-DD', or null. */
function sheetEntryDate(entry: string): string | null {
  const text = entry.trim();
  let m = DAY_FIRST.exec(text);
  if (m) return isoDate(Number(m[3]), Number(m[2]), Number(m[1]));
  m = ISO.exec(text);
  if (m) return isoDate(Number(m[1]), Number(m[2]), Number(m[3]));
  m = DAY_MONTH_NAME.exec(text);
  if (m) {
    const month = MONTHS.indexOf((m[2] ?? '').toLowerCase()) + 1;
    return month === 0 ? null : isoDate(Number(m[3]), month, Number(m[1]));
  }
  return null;
}

/** What a curve record's entry for one stage says. */
export function stageEntry(entry: string | null | undefined): StageEntry {
  if (!entry) return { done: false, on: null };
  const on = sheetEntryDate(entry);
  if (on) return { done: true, on };
  return { done: DONE_WORDS.has(entry.trim().toLowerCase()), on: null };
}

/** The stage entries of a curve record that say whether its machine is there. */
export interface MachineStageEntries {
  machine: string | null | undefined;
  commissioned: string | null | undefined;
}

/**
 * The rollout record says the curve's machine is in place: installed or commissioned (a
 * commissioned machine was installed, whatever the sheet's installed column says). A laid
 * foundation alone is no machine. The schedule reads this (common/rules/schedule.ts, hasMachine).
 */
export function rolloutHasMachine(entries: MachineStageEntries): boolean {
  return stageEntry(entries.machine).done || stageEntry(entries.commissioned).done;
}

/**
 * A DEN or AEN as the rollout records name it, or null for none. Sheets pasted from Excel carry
 * stray spaces, tabs and non-breaking spaces around names: every Unicode space is trimmed, so
 * the dashboard's filters, its counts and the machine report read the same name.
 */
export function rolloutName(value: string | null | undefined): string | null {
  const trimmed = value?.trim();
  return trimmed ? trimmed : null;
}

/** The four figures of a division's rollout (machine_dashboard_summary; scope is the curve count). */
export interface RolloutFigures {
  scope: number;
  foundationCompleted: number;
  machinesInstalled: number;
  machinesCommissioned: number;
}

export const ROLLOUT_FIELDS = ['scope', 'foundationCompleted', 'machinesInstalled', 'machinesCommissioned'] as const;
export type RolloutField = (typeof ROLLOUT_FIELDS)[number];

const ROLLOUT_FIELD_LABELS: Record<RolloutField, string> = {
  scope: 'Scope',
  foundationCompleted: 'Foundation completed',
  machinesInstalled: 'Machines installed',
  machinesCommissioned: 'Machines commissioned',
};

/** The largest figure accepted: more curves than a zone has, far below int4. */
export const ROLLOUT_FIGURE_MAX = 100_000;

/**
 * The first figure that cannot be, with why, or null. Each figure is a whole number from 0 to
 * ROLLOUT_FIGURE_MAX, and no stage has more curves than the stage before it: a machine is
 * installed on a foundation, and commissioned once installed.
 */
export function rolloutFiguresProblem(figures: RolloutFigures): { field: RolloutField; message: string } | null {
  for (const field of ROLLOUT_FIELDS) {
    const value = figures[field];
    const label = ROLLOUT_FIELD_LABELS[field];
    if (!Number.isInteger(value)) return { field, message: `${label} must be a whole number` };
    if (value < 0) return { field, message: `${label} cannot be negative` };
    if (value > ROLLOUT_FIGURE_MAX) return { field, message: `${label} must be at most ${ROLLOUT_FIGURE_MAX.toLocaleString('en-US')}` };
  }
  for (let i = 1; i < ROLLOUT_FIELDS.length; i += 1) {
    const field = ROLLOUT_FIELDS[i] as RolloutField;
    const before = ROLLOUT_FIELDS[i - 1] as RolloutField;
    if (figures[field] > figures[before]) {
      return {
        field,
        message: `${ROLLOUT_FIELD_LABELS[field]} (${figures[field]}) cannot be more than ${ROLLOUT_FIELD_LABELS[before].toLowerCase()} (${figures[before]})`,
      };
    }
  }
  return null;
}

/**
 * The spec's machine value input (section 5): a whole number, minimum 0; a non-numeric entry
 * becomes 0. A fraction is cut to its whole part, a negative entry becomes 0.
 */
export function machineValueOf(input: string): number {
  const n = Number.parseInt(input.trim(), 10);
  return Number.isFinite(n) && n > 0 ? n : 0;
}
