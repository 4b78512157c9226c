/**
 * Date arithmetic on plain `YYYY-MM-DD` strings. The seed works from the railway's "today"
 * given by the caller, never from the server clock, so the result does not depend on the
 * time zone the process runs in.
 */
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAY_MS = 86_400_000;

/** Every demo division is in India; the seed's clock times are IST (UTC+05:30). */
const IST_OFFSET_MINUTES = 330;

function toUtcMidnight(isoDate: string): number {
  const match = ISO_DATE.exec(isoDate);
  if (!match) throw new Error(`Expected a date as YYYY-MM-DD, got '${isoDate}'`);
  const [, y, m, d] = match;
  const ms = Date.UTC(Number(y), Number(m) - 1, Number(d));
  // Date.UTC rolls 2025-02-30 over to March; a rolled-over date is a caller's mistake.
  if (new Date(ms).toISOString().slice(0, 10) !== isoDate) throw new Error(`Not a calendar date: '${isoDate}'`);
  return ms;
}

export function assertIsoDate(isoDate: string): void {
  toUtcMidnight(isoDate);
}

export function addDays(isoDate: string, days: number): string {
  return new Date(toUtcMidnight(isoDate) + days * DAY_MS).toISOString().slice(0, 10);
}

/** The instant at a given IST wall-clock time on a given date. */
export function istInstant(isoDate: string, minutesAfterMidnight: number): Date {
  return new Date(toUtcMidnight(isoDate) + (minutesAfterMidnight - IST_OFFSET_MINUTES) * 60_000);
}

export function compactDate(isoDate: string): string {
  return isoDate.replaceAll('-', '');
}

/** `DD.MM.YYYY`, the way divisional progress sheets write dates (fits the 20-character columns). */
export function sheetDate(isoDate: string): string {
  const [y, m, d] = isoDate.split('-');
  return `${d}.${m}.${y}`;
}

export function clockTime(minutesAfterMidnight: number): string {
  const h = Math.floor(minutesAfterMidnight / 60);
  const m = minutesAfterMidnight % 60;
  return `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`;
}
