/**
 * Date arithmetic on plain `YYYY-MM-DD` strings. The seed works from the railway's "today"
 * given by the caller, never from the server clock, so the result does not depend on the
 * time zone the process runs in.
 */
import { addDays, isoDateToUtcMs } from '../../../common/rules/dates.js';

/** Every demo division is in India; the seed's clock times are IST (UTC+05:30). */
const IST_OFFSET_MINUTES = 330;

export { addDays };

export function assertIsoDate(isoDate: string): void {
  isoDateToUtcMs(isoDate);
}

/** The instant at a given IST wall-clock time on a given date. */
export function istInstant(isoDate: string, minutesAfterMidnight: number): Date {
  return new Date(isoDateToUtcMs(isoDate) + (minutesAfterMidnight - IST_OFFSET_MINUTES) * 60_000);
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
