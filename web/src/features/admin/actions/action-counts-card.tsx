import { useLingui } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { Card, CardDescription, CardTitle } from '../../../components/ui/card.js';
import { cn } from '../../../lib/cn.js';
import { failureText } from '../../../lib/api-failure.js';
import { actionCountsUrl, actionsViewSearch } from './action-query.js';
import { parseActionCounts } from './actions-api.js';

/** Indian grouping (1,23,456) in both languages: Hindi's hi-IN writes the same Latin digits. */
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
  const { t } = useLingui();
  const counts = useQuery({ queryKey: [actionCountsUrl(division)], select: parseActionCounts, staleTime: 0 });
  const rows = counts.data?.divisions ?? [];
  const asOf = counts.data?.asOf;
  const total = rows.reduce((sum, row) => ({ open: sum.open + row.open, overdue: sum.overdue + row.overdue }), { open: 0, overdue: 0 });
  return (
    <Card aria-labelledby="action-counts-title" aria-busy={counts.isFetching || undefined}>
      <CardTitle id="action-counts-title">{t`Follow-up actions`}</CardTitle>
      <CardDescription>
        {asOf !== undefined ? t`Faults reported in the field, open and overdue as of ${asOf}` : t`Faults reported in the field, until a visit proves them fixed`}
      </CardDescription>
      {counts.isPending ? (
        <p className="mt-2 text-base text-slate-700">{t`Loading follow-up actions...`}</p>
      ) : counts.isError ? (
        <p role="alert" className="mt-2 text-base font-medium text-red-700">
          {failureText(t`Failed to load follow-up actions`, counts.error)}
        </p>
      ) : rows.length === 0 ? (
        <p className="mt-2 text-base text-slate-700">{t`No open follow-up actions.`}</p>
      ) : (
        <table className="mt-3 w-full max-w-md border-collapse text-left text-base">
          <caption className="sr-only">{t`Open and overdue follow-up actions by division`}</caption>
          <thead>
            <tr className="border-b-2 border-slate-300">
              <th scope="col" className="py-2 pr-3 font-semibold">
                {t`Division`}
              </th>
              <th scope="col" className="px-2 py-2 text-right font-semibold">
                {t`Open`}
              </th>
              <th scope="col" className="px-2 py-2 text-right font-semibold">
                {t`Overdue`}
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map(({ divisionRailway, open, overdue }) => (
              <tr key={divisionRailway} className="border-b border-slate-200">
                <th scope="row" className="py-1 pr-3 font-medium">
                  {divisionRailway}
                </th>
                <td className="px-0 py-1 text-right">
                  <CountLink count={open} search={actionsViewSearch(divisionRailway, false)} label={t`${open} open actions in ${divisionRailway}`} />
                </td>
                <td className="px-0 py-1 text-right">
                  <CountLink count={overdue} search={actionsViewSearch(divisionRailway, true)} label={t`${overdue} overdue actions in ${divisionRailway}`} alarm />
                </td>
              </tr>
            ))}
            {rows.length > 1 ? (
              <tr className="font-bold">
                <th scope="row" className="py-2 pr-3">
                  {t`Total`}
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
