import { useMutation, useQuery } from '@tanstack/react-query';
import type { ReportSummary } from '../../../../../common/schemas/reports.js';
import { Button } from '../../../components/ui/button.js';
import { Card, CardDescription, CardTitle } from '../../../components/ui/card.js';
import { toast } from '../../../components/ui/toast-store.js';
import { failureText } from '../api-failure.js';
import { saveFile } from '../records/index.js';
import { REPORT_TEXTS } from './report-texts.js';
import { downloadReport, parseRecentReports, recentReportsUrl } from './reports-api.js';

const when = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' });

function describe(report: ReportSummary): string {
  const division = typeof report.params.division === 'string' && report.params.division !== 'all' ? report.params.division : 'All divisions';
  const section = typeof report.params.section === 'string' && report.params.section !== 'all' ? report.params.section : 'all sections';
  return `${division}, ${section}`;
}

function figures(report: ReportSummary): string {
  const service = report.summary?.serviceCount;
  const cof = report.summary?.cofCount;
  return typeof service === 'number' && typeof cof === 'number' ? `${service} service, ${cof} CoF` : '';
}

/** The user's reports still kept on the server: downloaded again as they were made, not remade. */
export function RecentReports({ kind }: { kind: ReportSummary['kind'] }) {
  const recent = useQuery({ queryKey: [recentReportsUrl(kind)], select: parseRecentReports, staleTime: 0 });
  const download = useMutation({
    mutationFn: (report: ReportSummary) => downloadReport(report.reportId, report.fileName ?? `${report.reportId}.xlsx`),
    onSuccess: saveFile,
    onError: (error) => toast({ variant: 'destructive', title: REPORT_TEXTS.downloadFailedTitle, description: failureText(REPORT_TEXTS.downloadFailed, error) }),
  });
  const reports = (recent.data ?? []).filter((r) => r.status === 'done');
  return (
    <Card aria-labelledby="recent-reports-title">
      <CardTitle id="recent-reports-title">Your recent reports</CardTitle>
      {recent.isPending ? (
        <p className="mt-2 text-base text-slate-700">Loading your reports...</p>
      ) : recent.isError ? (
        <p role="alert" className="mt-2 text-base font-medium text-red-700">
          {failureText('Failed to load your reports', recent.error)}
        </p>
      ) : reports.length === 0 ? (
        <CardDescription className="mt-1">Reports you generate are kept here for download for a few days.</CardDescription>
      ) : (
        <ul className="mt-2 flex flex-col divide-y divide-slate-200" aria-label="Your recent reports">
          {reports.map((report) => (
            <li key={report.reportId} className="flex flex-wrap items-center justify-between gap-2 py-2">
              <span className="flex flex-col">
                <span className="font-semibold text-slate-900">{describe(report)}</span>
                <span className="text-sm text-slate-700">
                  {[when.format(new Date(report.createdAt)), figures(report), `kept until ${when.format(new Date(report.expiresAt))}`].filter(Boolean).join(' · ')}
                </span>
              </span>
              <Button
                variant="outline"
                size="sm"
                onClick={() => download.mutate(report)}
                disabled={download.isPending}
                aria-label={`Download ${report.fileName ?? 'report'}`}
              >
                Download
              </Button>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
