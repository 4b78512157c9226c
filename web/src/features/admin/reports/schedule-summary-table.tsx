import { NO_MACHINE_LABEL } from '../../../../../common/rules/schedule.js';
import type { ScheduleSectionSummary } from '../../../../../common/schemas/schedule.js';
import { cn } from '../../../lib/cn.js';

type Counts = Pick<ScheduleSectionSummary, 'curves' | 'service' | 'cof'>;

const COLUMNS: { label: string; value: (c: Counts) => number; alarm?: boolean }[] = [
  { label: 'Curves', value: (c) => c.curves },
  { label: 'Service overdue', value: (c) => c.service.overdue, alarm: true },
  { label: 'Service due soon', value: (c) => c.service.dueSoon },
  { label: 'Service never', value: (c) => c.service.never },
  { label: 'CoF overdue', value: (c) => c.cof.overdue, alarm: true },
  { label: 'CoF due soon', value: (c) => c.cof.dueSoon },
  { label: 'CoF never', value: (c) => c.cof.never },
  { label: 'CoF high', value: (c) => c.cof.high, alarm: true },
  // Curves with no lubricator are on neither schedule: counted apart, never as "never".
  { label: NO_MACHINE_LABEL, value: (c) => c.service.noMachine },
];

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
  rowHeader: 'Division' | 'Section';
  rows: readonly { key: string; label: string; counts: Counts }[];
}) {
  const total = sumCounts(rows.map((r) => r.counts));
  return (
    <div className="mt-3 overflow-x-auto" tabIndex={0} role="region" aria-label={caption}>
      <table className="w-full min-w-[42rem] border-collapse text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr className="border-b-2 border-slate-300">
            <th scope="col" className="py-2 pr-3 font-semibold">
              {rowHeader}
            </th>
            {COLUMNS.map((c) => (
              <th key={c.label} scope="col" className="px-2 py-2 text-right font-semibold">
                {c.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {[...rows, ...(rows.length > 1 ? [{ key: 'total', label: 'Total', counts: total }] : [])].map((row) => (
            <tr key={row.key} className={cn('border-b border-slate-200', row.key === 'total' && 'font-bold')}>
              <th scope="row" className="py-2 pr-3 font-medium">
                {row.label}
              </th>
              {COLUMNS.map((c) => {
                const value = c.value(row.counts);
                return (
                  <td key={c.label} className={cn('px-2 py-2 text-right tabular-nums', c.alarm && value > 0 && 'font-bold text-red-800')}>
                    {value.toLocaleString('en-IN')}
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
