/** How every report states when it was made and what it covers, in the same words. */

const formats = new Map<string, Intl.DateTimeFormat>();
/** "23 Nov 2026, 14:05" in `timeZone`: a formatter is costly to make, and a report formats thousands. */
export function dateTimeText(at: Date, timeZone: string): string {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-GB', { timeZone, dateStyle: 'medium', timeStyle: 'short' });
    formats.set(timeZone, format);
  }
  return format.format(at);
}

/** "23 Nov 2026, 14:05 (Asia/Kolkata)": when a report was asked for, in the app's time zone. */
export function madeAtText(at: Date, timeZone: string): string {
  return `${dateTimeText(at, timeZone)} (${timeZone})`;
}

/** "from 2026-11-01 to 2026-11-23", "up to 2026-11-23", "all dates". */
export function periodText(fromDate: string | undefined, toDate: string | undefined): string {
  if (fromDate && toDate) return `from ${fromDate} to ${toDate}`;
  if (fromDate) return `from ${fromDate}`;
  if (toDate) return `up to ${toDate}`;
  return 'all dates';
}

const SERVICE_UPDATE_TEXT: Record<string, string> = {
  'working-fine': 'Working fine',
  'part-broken': 'Part broken',
  'part-stolen': 'Part stolen',
  uninstall: 'Machine uninstalled',
};

/** A Service visit's update as a person reads it; '' when none was recorded. */
export const serviceUpdateText = (update: string | null) => (update === null ? '' : (SERVICE_UPDATE_TEXT[update] ?? update));

/** The given parts joined with a dash, leaving out empty ones: "Station A – Station B". */
export const joinedText = (...parts: (string | null)[]) => parts.filter((p): p is string => p !== null && p.trim() !== '').join(' – ');
