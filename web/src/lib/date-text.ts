import { intlLocale } from './i18n.js';

/** Dates as people read them on the screens, in the active language ("21 Nov 2026", "21 नव॰ 2026"). */

/** 2026-11-21 as "21 Nov 2026": the visit's own date, never moved by the viewer's time zone. */
export function visitDateText(date: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!match) return date;
  const [, y, m, d] = match;
  const at = new Date(Date.UTC(Number(y), Number(m) - 1, Number(d)));
  return at.toLocaleDateString(intlLocale(), { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
}

export function submittedText(iso: string): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  return at.toLocaleString(intlLocale(), { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' });
}
