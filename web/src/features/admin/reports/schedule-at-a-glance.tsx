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
  // The landing's division filter narrows it; a Client's answer is their division anyway.
  const summary = useQuery({ queryKey: [scheduleSummaryUrl(division, 'all')], select: parseScheduleSummary, staleTime: 0 });
  const divisions = [...new Set((summary.data?.sections ?? []).map((s) => s.divisionRailway))];
  return (
    <Card aria-labelledby="schedule-glance-title" aria-busy={summary.isFetching || undefined}>
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div>
          <CardTitle id="schedule-glance-title">Maintenance schedule</CardTitle>
          <CardDescription>{summary.data ? `Curves by state as of ${summary.data.asOf}` : 'Service every 15 days, CoF every 30 days'}</CardDescription>
        </div>
        <Button variant="outline" size="sm" onClick={onOpenReport}>
          Open Excel Reports
        </Button>
      </div>
      {summary.isPending ? (
        <p className="mt-2 text-base text-slate-700">Loading the schedule...</p>
      ) : summary.isError ? (
        <p role="alert" className="mt-2 text-base font-medium text-red-700">
          {failureText('Failed to load the schedule', summary.error)}
        </p>
      ) : divisions.length === 0 ? (
        <p className="mt-2 text-base text-slate-700">No curves in the register yet.</p>
      ) : (
        <ScheduleCountsTable
          caption="Maintenance schedule by division"
          rowHeader="Division"
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
