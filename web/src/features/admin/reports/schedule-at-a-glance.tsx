import { Trans, useLingui } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import { Button } from '../../../components/ui/button.js';
import { Card, CardDescription, CardTitle } from '../../../components/ui/card.js';
import { failureText } from '../../../lib/api-failure.js';
import { parseScheduleSummary, scheduleSummaryUrl } from './reports-api.js';
import { ScheduleCountsTable, sumCounts } from './schedule-summary-table.js';

/**
 * The reports landing's answer to "which curves have not been looked after in time?": overdue,
 * due and never-done counts per division (a Client sees their own), with the way to the report.
 */
export function ScheduleAtAGlance({ division, onOpenReport }: { division: string; onOpenReport: () => void }) {
  const { t } = useLingui();
  // The landing's division filter narrows it; a Client's answer is their division anyway.
  const summary = useQuery({ queryKey: [scheduleSummaryUrl(division, 'all')], select: parseScheduleSummary, staleTime: 0 });
  const asOf = summary.data?.asOf;
  const divisions = [...new Set((summary.data?.sections ?? []).map((s) => s.divisionRailway))];
  return (
    <Card aria-labelledby="schedule-glance-title" aria-busy={summary.isFetching || undefined}>
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div>
          <CardTitle id="schedule-glance-title">
            <Trans>Maintenance schedule</Trans>
          </CardTitle>
          <CardDescription>{asOf === undefined ? t`Service every 15 days, CoF every 30 days` : t`Curves by state as of ${asOf}`}</CardDescription>
        </div>
        <Button variant="outline" size="sm" onClick={onOpenReport}>
          <Trans>Open Excel Reports</Trans>
        </Button>
      </div>
      {summary.isPending ? (
        <p className="mt-2 text-base text-slate-700">
          <Trans>Loading the schedule...</Trans>
        </p>
      ) : summary.isError ? (
        <p role="alert" className="mt-2 text-base font-medium text-red-700">
          {failureText(t`Failed to load the schedule`, summary.error)}
        </p>
      ) : divisions.length === 0 ? (
        <p className="mt-2 text-base text-slate-700">
          <Trans>No curves in the register yet.</Trans>
        </p>
      ) : (
        <ScheduleCountsTable
          caption={t`Maintenance schedule by division`}
          rowHeader="division"
          rows={divisions.map((division) => ({
            key: division,
            label: division,
            counts: sumCounts(summary.data.sections.filter((s) => s.divisionRailway === division)),
          }))}
        />
      )}
    </Card>
  );
}
