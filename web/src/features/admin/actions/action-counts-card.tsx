import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { Card, CardDescription, CardTitle } from '../../../components/ui/card.js';
import { cn } from '../../../lib/cn.js';
import { failureText } from '../../../lib/api-failure.js';
import { actionCountsUrl, actionsViewSearch } from './action-query.js';
import { ACTION_TEXTS } from './action-texts.js';
import { parseActionCounts } from './actions-api.js';

const numberText = (n: number) => n.toLocaleString('en-IN');

/** A count that opens the Actions view at the actions it counts; a thumb's 44 px target. */
function CountLink({ count, search, label, alarm = false }: { count: number; search: string; label: string; alarm?: boolean }) {
  return (
    <Link
      to={search}
      aria-label={label}
      className={cn(
        'inline-flex min-h-11 min-w-11 items-center justify-end rounded-lg px-2 font-semibold tabular-nums underline hover:bg-slate-100',
        alarm && count > 0 ? 'text-red-800' : 'text-brand-800',
      )}
    >
      {numberText(count)}
    </Link>
  );
}

/**
 * The reports landing's "what is waiting to be fixed?": open and overdue follow-up actions per
 * division (a Client's own only, the server decides), each count opening the Actions view there.
 */
export function ActionCountsCard({ division }: { division: string }) {
  const counts = useQuery({ queryKey: [actionCountsUrl(division)], select: parseActionCounts, staleTime: 0 });
  const rows = counts.data?.divisions ?? [];
  const total = rows.reduce((sum, row) => ({ open: sum.open + row.open, overdue: sum.overdue + row.overdue }), { open: 0, overdue: 0 });
  return (
    <Card aria-labelledby="action-counts-title" aria-busy={counts.isFetching || undefined}>
      <CardTitle id="action-counts-title">{ACTION_TEXTS.countsTitle}</CardTitle>
      <CardDescription>{counts.data ? ACTION_TEXTS.countsDescription(counts.data.asOf) : ACTION_TEXTS.countsDefault}</CardDescription>
      {counts.isPending ? (
        <p className="mt-2 text-base text-slate-700">{ACTION_TEXTS.countsLoading}</p>
      ) : counts.isError ? (
        <p role="alert" className="mt-2 text-base font-medium text-red-700">
          {failureText(ACTION_TEXTS.countsFailed, counts.error)}
        </p>
      ) : rows.length === 0 ? (
        <p className="mt-2 text-base text-slate-700">{ACTION_TEXTS.countsNone}</p>
      ) : (
        <table className="mt-3 w-full max-w-md border-collapse text-left text-base">
          <caption className="sr-only">{ACTION_TEXTS.countsCaption}</caption>
          <thead>
            <tr className="border-b-2 border-slate-300">
              <th scope="col" className="py-2 pr-3 font-semibold">
                {ACTION_TEXTS.countsDivision}
              </th>
              <th scope="col" className="px-2 py-2 text-right font-semibold">
                {ACTION_TEXTS.countsOpen}
              </th>
              <th scope="col" className="px-2 py-2 text-right font-semibold">
                {ACTION_TEXTS.countsOverdue}
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.divisionRailway} className="border-b border-slate-200">
                <th scope="row" className="py-1 pr-3 font-medium">
                  {row.divisionRailway}
                </th>
                <td className="px-0 py-1 text-right">
                  <CountLink count={row.open} search={actionsViewSearch(row.divisionRailway, false)} label={ACTION_TEXTS.openActionsOf(row.open, row.divisionRailway)} />
                </td>
                <td className="px-0 py-1 text-right">
                  <CountLink
                    count={row.overdue}
                    search={actionsViewSearch(row.divisionRailway, true)}
                    label={ACTION_TEXTS.overdueActionsOf(row.overdue, row.divisionRailway)}
                    alarm
                  />
                </td>
              </tr>
            ))}
            {rows.length > 1 ? (
              <tr className="font-bold">
                <th scope="row" className="py-2 pr-3">
                  {ACTION_TEXTS.countsTotal}
                </th>
                <td className="px-2 py-2 text-right tabular-nums">{numberText(total.open)}</td>
                <td className={cn('px-2 py-2 text-right tabular-nums', total.overdue > 0 && 'text-red-800')}>{numberText(total.overdue)}</td>
              </tr>
            ) : null}
          </tbody>
        </table>
      )}
    </Card>
  );
}
