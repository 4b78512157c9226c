import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import { useLingui } from '@lingui/react';
import type { ScheduleSectionSummary } from '../../../../../common/schemas/schedule.js';
import { cn } from '../../../lib/cn.js';
import { activeLanguage, intlLocale } from '../../../lib/i18n.js';

type Counts = Pick<ScheduleSectionSummary, 'curves' | 'service' | 'cof'>;

const COLUMNS: { key: string; label: MessageDescriptor; value: (c: Counts) => number; alarm?: boolean }[] = [
  { key: 'curves', label: msg`Curves`, value: (c) => c.curves },
  { key: 'service-overdue', label: msg`Service overdue`, value: (c) => c.service.overdue, alarm: true },
  { key: 'service-due-soon', label: msg`Service due soon`, value: (c) => c.service.dueSoon },
  { key: 'service-never', label: msg`Service never`, value: (c) => c.service.never },
  { key: 'cof-overdue', label: msg`CoF overdue`, value: (c) => c.cof.overdue, alarm: true },
  { key: 'cof-due-soon', label: msg`CoF due soon`, value: (c) => c.cof.dueSoon },
  { key: 'cof-never', label: msg`CoF never`, value: (c) => c.cof.never },
  { key: 'cof-high', label: msg`CoF high`, value: (c) => c.cof.high, alarm: true },
  // Curves with no lubricator are on neither schedule: counted apart, never as "never".
  // The same words as common/rules/schedule.ts' NO_MACHINE_LABEL, which the Excel report writes.
  { key: 'no-machine', label: msg`No machine`, value: (c) => c.service.noMachine },
];

/** The rows' kind, named in the header's first cell. */
const ROW_HEADERS = { division: msg`Division`, section: msg`Section` } as const;

/** Counts keep the Indian grouping (1,00,000) in English as they always had; Hindi groups the same way. */
const countText = (n: number) => n.toLocaleString(activeLanguage() === 'en' ? 'en-IN' : intlLocale());

/** Adds up rows (sections into their division, or everything into a total). */
export function sumCounts(rows: readonly Counts[]): Counts {
  const zero = () => ({ overdue: 0, dueSoon: 0, never: 0, inTime: 0, attention: 0, noMachine: 0 });
  const total: Counts = { curves: 0, service: { ...zero(), notNeeded: 0 }, cof: { ...zero(), high: 0 } };
  for (const row of rows) {
    total.curves += row.curves;
    for (const key of Object.keys(total.service) as (keyof Counts['service'])[]) total.service[key] += row.service[key];
    for (const key of Object.keys(total.cof) as (keyof Counts['cof'])[]) total.cof[key] += row.cof[key];
  }
  return total;
}

/**
 * Counts of the schedule per row (section, or division): what is overdue, due soon, never done,
 * CoF readings above the threshold, and the curves with no machine. Wide, so it scrolls sideways on a phone.
 */
export function ScheduleCountsTable({
  caption,
  rowHeader,
  rows,
}: {
  caption: string;
  rowHeader: keyof typeof ROW_HEADERS;
  rows: readonly { key: string; label: string; counts: Counts }[];
}) {
  const { i18n } = useLingui();
  const total = sumCounts(rows.map((r) => r.counts));
  return (
    <div className="mt-3 overflow-x-auto" tabIndex={0} role="region" aria-label={caption}>
      <table className="w-full min-w-[42rem] border-collapse text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr className="border-b-2 border-slate-300">
            <th scope="col" className="py-2 pr-3 font-semibold">
              {i18n._(ROW_HEADERS[rowHeader])}
            </th>
            {COLUMNS.map((c) => (
              <th key={c.key} scope="col" className="px-2 py-2 text-right font-semibold">
                {i18n._(c.label)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {[...rows, ...(rows.length > 1 ? [{ key: 'total', label: i18n._(msg`Total`), counts: total }] : [])].map((row) => (
            <tr key={row.key} className={cn('border-b border-slate-200', row.key === 'total' && 'font-bold')}>
              <th scope="row" className="py-2 pr-3 font-medium">
                {row.label}
              </th>
              {COLUMNS.map((c) => {
                const value = c.value(row.counts);
                return (
                  <td key={c.key} className={cn('px-2 py-2 text-right tabular-nums', c.alarm && value > 0 && 'font-bold text-red-800')}>
                    {countText(value)}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
