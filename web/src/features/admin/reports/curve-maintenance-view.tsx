import { Trans, useLingui } from '@lingui/react/macro';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { PublicUser } from '../../../../../common/schemas/auth.js';
import type { MaintenanceReportResponse } from '../../../../../common/schemas/schedule.js';
import { Button } from '../../../components/ui/button.js';
import { Card, CardDescription, CardTitle } from '../../../components/ui/card.js';
import { Label } from '../../../components/ui/label.js';
import { toast } from '../../../components/ui/toast-store.js';
import { cn } from '../../../lib/cn.js';
import { failureText } from '../../../lib/api-failure.js';
import { FilterSelect } from '../../../components/ui/filter-select.js';
import { saveFile } from '../records/index.js';
import { useRegisterFilters } from '../register/index.js';
import { selectClasses } from '../../../components/ui/select-classes.js';
import { RecentReports } from './recent-reports.js';
import { downloadReport, generateMaintenanceReport, parseScheduleSummary, recentReportsUrl, scheduleSummaryUrl } from './reports-api.js';
import { ScheduleCountsTable } from './schedule-summary-table.js';

/** The Excel report's division choices: all, FZR/NR and RTM/WR. */
const DIVISION_CHOICES = ['FZR/NR', 'RTM/WR'] as const;

/** The file's name when the server's answer names none: a file name, the same in every language. */
const FALLBACK_FILE_PREFIX = 'Curve_Maintenance_';

interface MadeReport extends MaintenanceReportResponse {
  fileName: string;
}

/**
 * Excel Reports (spec view 'curve-maintenance'): the curves of a division or section that need a
 * Service visit or a CoF measurement, as an XLSX made by the server from the schedule rule, and
 * the same figures per section on screen. A Client's division is theirs and cannot be changed.
 */
export function CurveMaintenanceView({ user }: { user: PublicUser }) {
  const { t } = useLingui();
  const isClient = user.role === 'Client';
  const [division, setDivision] = useState<string>(isClient ? (user.divisionAccess ?? '') : 'all');
  const [section, setSection] = useState('all');
  const [made, setMade] = useState<MadeReport | null>(null);
  const filters = useRegisterFilters(division === 'all' ? '' : division);
  const sections = [...new Set((filters.data?.sections ?? []).map((s) => s.section))].sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));

  const download = useMutation({
    mutationFn: (report: MadeReport) => downloadReport(report.reportId, report.fileName),
    onSuccess: saveFile,
    onError: (error) => toast({ variant: 'destructive', title: t`Download Failed`, description: failureText(t`Failed to download report`, error) }),
  });

  const queryClient = useQueryClient();
  const generate = useMutation({
    mutationFn: () => generateMaintenanceReport(division, section),
    onSuccess: (answer) => {
      void queryClient.invalidateQueries({ queryKey: [recentReportsUrl('curve-maintenance')] });
      toast({ title: t`Report Generated`, description: foundText(answer) });
      const report = { ...answer, fileName: `${FALLBACK_FILE_PREFIX}${answer.reportId}.xlsx` };
      setMade(report);
      download.mutate(report);
    },
    // The server's reason after the spec's text: 'wait for one of your reports to finish' is
    // something the officer can act on.
    onError: (error) => toast({ variant: 'destructive', title: t`Error`, description: failureText(t`Failed to generate curve maintenance report`, error) }),
  });

  const summary = useQuery({ queryKey: [scheduleSummaryUrl(division, section)], select: parseScheduleSummary, staleTime: 0 });

  const foundText = ({ serviceCount, cofCount }: { serviceCount: number; cofCount: number }) =>
    t`Found ${serviceCount} curves needing service and ${cofCount} curves needing CoF measurement.`;

  const asOfText = (asOf: string, alertThreshold: number) => {
    const threshold = alertThreshold.toFixed(2);
    return t`As of ${asOf}. CoF high: last reading above ${threshold}.`;
  };

  const chooseDivision = (value: string) => {
    setDivision(value);
    setSection('all');
    setMade(null);
  };

  return (
    <>
      <Card aria-labelledby="maintenance-report-title">
        <CardTitle id="maintenance-report-title">
          <Trans>Curve Maintenance Report</Trans>
        </CardTitle>
        <CardDescription>
          <Trans>
            Curves that need a Service visit (every 15 days) or a CoF measurement (every 30 days): never done, overdue or due within 3
            days, and CoF readings above the alert level. An XLSX with a summary per section and a sheet for each kind.
          </Trans>
        </CardDescription>
        <div className="mt-3 grid grid-cols-1 items-end gap-3 sm:grid-cols-3">
          {isClient ? (
            <div>
              <Label htmlFor="maintenance-division">
                <Trans>Division</Trans>
              </Label>
              <select id="maintenance-division" value={division} disabled className={cn(selectClasses(false), 'mt-1')}>
                <option value={division}>{division || t`No division assigned`}</option>
              </select>
            </div>
          ) : (
            <FilterSelect
              id="maintenance-division"
              label={t`Division`}
              value={division}
              onChange={chooseDivision}
              all={{ value: 'all', label: t`All divisions` }}
              options={DIVISION_CHOICES}
            />
          )}
          <FilterSelect
            id="maintenance-section"
            label={t`Section`}
            value={section}
            onChange={(value) => {
              setSection(value);
              setMade(null);
            }}
            all={{ value: 'all', label: t`All sections` }}
            options={sections}
          />
          <Button onClick={() => generate.mutate()} disabled={generate.isPending || (isClient && division === '')} aria-busy={generate.isPending || undefined}>
            {generate.isPending ? t`Generating...` : t`Generate Excel Report`}
          </Button>
        </div>
        {made ? (
          <div className="mt-3 flex flex-wrap items-center gap-3 rounded-lg border border-slate-300 bg-slate-50 p-3" role="status">
            <p className="text-base">{foundText(made)}</p>
            <Button variant="outline" size="sm" onClick={() => download.mutate(made)} disabled={download.isPending}>
              {download.isPending ? t`Downloading...` : t`Download again`}
            </Button>
          </div>
        ) : null}
      </Card>

      <RecentReports kind="curve-maintenance" />

      <Card aria-labelledby="schedule-sections-title" aria-busy={summary.isFetching || undefined}>
        <CardTitle id="schedule-sections-title">
          <Trans>Maintenance schedule by section</Trans>
        </CardTitle>
        {summary.isPending ? (
          <p className="mt-2 text-base text-slate-700">
            <Trans>Loading the schedule...</Trans>
          </p>
        ) : summary.isError ? (
          <div className="mt-2 flex flex-col items-start gap-2">
            <p role="alert" className="text-base font-medium text-red-700">
              {failureText(t`Failed to load the schedule`, summary.error)}
            </p>
            <Button variant="outline" size="sm" onClick={() => void summary.refetch()}>
              <Trans>Try Again</Trans>
            </Button>
          </div>
        ) : (
          <>
            <CardDescription className="mt-1">
              {asOfText(summary.data.asOf, summary.data.cofAlertThreshold)}
            </CardDescription>
            {summary.data.sections.length === 0 ? (
              <p className="mt-2 text-base text-slate-700">
                <Trans>No curves in this selection.</Trans>
              </p>
            ) : (
              <ScheduleCountsTable
                caption={t`Maintenance schedule by section`}
                rowHeader="section"
                rows={summary.data.sections.map((s) => ({
                  key: `${s.divisionRailway}|${s.section}`,
                  label: division === 'all' ? `${s.section} (${s.divisionRailway})` : s.section,
                  counts: s,
                }))}
              />
            )}
          </>
        )}
      </Card>
    </>
  );
}
