import type { Line } from '../constants.js';

/**
 * Curve records code lines as UP, DN and SL; the form and the records use Up, Down, Single.
 * Keys are upper case with spaces as underscores (see lineFromCode).
 */
export const LINE_CODES: Readonly<Record<string, Line>> = { UP: 'Up', DN: 'Down', SL: 'Single', UP_LINE: 'Up', DOWN: 'Down', SINGLE: 'Single' };

export function lineFromCode(code: string | null | undefined): Line | null {
  if (!code) return null;
  const key = code.trim().toUpperCase().replace(/\s+/g, '_');
  return LINE_CODES[key] ?? null;
}

/** FZR/NR is a single-line division: its line is always Single. */
export const SINGLE_LINE_DIVISIONS: readonly string[] = ['FZR/NR'];
