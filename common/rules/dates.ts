// Building an Intl formatter costs far more than using one; keep one per time zone.
const formatters = new Map<string, Intl.DateTimeFormat>();

/** The calendar date (YYYY-MM-DD) of an instant in a time zone, e.g. the railway's Asia/Kolkata. */
export function dateInTimeZone(instant: Date, timeZone: string): string {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    // en-CA formats dates as YYYY-MM-DD.
    formatter = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    formatters.set(timeZone, formatter);
  }
  return formatter.format(instant);
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAY_MS = 86_400_000;

/** Milliseconds of UTC midnight of a `YYYY-MM-DD` calendar date; throws on anything else. */
export function isoDateToUtcMs(isoDate: string): number {
  const match = ISO_DATE.exec(isoDate);
  if (!match) throw new Error(`Expected a date as YYYY-MM-DD, got '${isoDate}'`);
  const [, y, m, d] = match;
  const ms = Date.UTC(Number(y), Number(m) - 1, Number(d));
  // Date.UTC rolls 2025-02-30 over to March; a rolled-over date is a caller's mistake.
  if (new Date(ms).toISOString().slice(0, 10) !== isoDate) throw new Error(`Not a calendar date: '${isoDate}'`);
  return ms;
}

/** Calendar arithmetic on `YYYY-MM-DD` strings: no clock, no time zone, no daylight saving. */
export function addDays(isoDate: string, days: number): string {
  return new Date(isoDateToUtcMs(isoDate) + days * DAY_MS).toISOString().slice(0, 10);
}

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return Math.round((isoDateToUtcMs(to) - isoDateToUtcMs(from)) / DAY_MS);
}
