import { plural, t } from '@lingui/core/macro';
import { intlLocale } from '../../../lib/i18n.js';

/** A file's size for people: '850 KB', '12.4 MB'. */
export function fileSizeText(bytes: number): string {
  const format = (n: number, digits: number) => n.toLocaleString(intlLocale(), { minimumFractionDigits: digits, maximumFractionDigits: digits, useGrouping: false });
  return bytes >= 1024 * 1024 ? `${format(bytes / (1024 * 1024), 1)} MB` : `${format(Math.max(1, Math.round(bytes / 1024)), 0)} KB`;
}

/** The inspection types are stored and sent in English (Service, CoF); people read them in their language. */

export { inspectionTypeLabel } from '../../../lib/value-labels.js';

/** What a report counts, with its number, singular or plural: '1 CoF measurement', '7 CoF measurements'. */
export type RecordsText = (count: number) => string;

// The count as it is in each form, not the plural's '#', which would group it ("1,234"): "1234 records", as ever.
export const recordsText: RecordsText = (count) => plural(count, { one: `${count} record`, other: `${count} records` });
export const serviceRecordsText: RecordsText = (count) => plural(count, { one: `${count} service record`, other: `${count} service records` });
export const cofMeasurementsText: RecordsText = (count) => plural(count, { one: `${count} CoF measurement`, other: `${count} CoF measurements` });

/** A finished report in a line: 'Your report is ready: 7 CoF measurements, 850 KB.' */
export function readyText({ recordCount, fileSizeBytes }: { recordCount: number; fileSizeBytes: number | null }, countText: RecordsText): string {
  const records = countText(recordCount);
  if (fileSizeBytes === null) return t`Your report is ready: ${records}.`;
  const size = fileSizeText(fileSizeBytes);
  return t`Your report is ready: ${records}, ${size}.`;
}
