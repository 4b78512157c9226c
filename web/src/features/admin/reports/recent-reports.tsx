import { useMutation, useQuery } from '@tanstack/react-query';
import type { ReportKind, ReportSummary } from '../../../../../common/schemas/reports.js';
import { Button, buttonClasses } from '../../../components/ui/button.js';
import { Card, CardDescription, CardTitle } from '../../../components/ui/card.js';
import { toast } from '../../../components/ui/toast-store.js';
import { failureText } from '../../../lib/api-failure.js';
import { saveFile } from '../records/index.js';
import { fileSizeText, REPORT_TEXTS } from './report-texts.js';
import { downloadReport, parseRecentReports, recentReportsUrl } from './reports-api.js';

const when = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' });

/** A chosen filter value, or null where the report was not narrowed by it ('', 'all', absent). */
function chosen(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' && value.toLowerCase() !== 'all' ? value : null;
}

function dateRange(params: ReportSummary['params']): string {
  const from = chosen(params.fromDate);
  const to = chosen(params.toDate);
  if (from && to) return `${from} to ${to}`;
  if (from) return `from ${from}`;
  if (to) return `until ${to}`;
  return 'all dates';
}

/** What was asked for, in a line: the division and the kind's own filters. */
function describe(report: ReportSummary): string {
  const { params } = report;
  const division = chosen(params.division) ?? REPORT_TEXTS.allDivisions;
  switch (report.kind) {
    case 'curve-maintenance':
      return `${division}, ${chosen(params.section) ?? 'all sections'}`;
    case 'inspection-pdf':
      return [
        division,
        chosen(params.type) ?? 'Service and CoF',
        chosen(params.technicianId) ?? 'all technicians',
        dateRange(params),
        params.order === 'curve' ? 'by curve' : null,
      ]
        .filter(Boolean)
        .join(', ');
    case 'sse-cof-pdf':
      return [division, chosen(params.sseEngineer) ?? 'all SSEs', dateRange(params)].join(', ');
    case 'service-table-pdf':
      return [division, chosen(params.technician) ?? 'all technicians', chosen(params.sseEngineer) ?? 'all SSEs', dateRange(params)].join(', ');
    case 'machine-dashboard':
      return [division, chosen(params.den) ?? 'all DENs', chosen(params.aen) ?? 'all AENs'].join(', ');
    case 'follow-up-actions':
      return [division, chosen(params.section) ?? 'all sections', chosen(params.kind) ?? 'all faults', chosen(params.state) ?? 'open'].join(', ');
    case 'analytics-pdf':
      return [division, chosen(params.section) ?? 'all sections', chosen(params.sse) ?? 'all SSEs', `${chosen(params.from)} to ${chosen(params.to)}`, `by ${chosen(params.by)}`].join(', ');
  }
}

function figures(report: ReportSummary): string {
  if (report.kind === 'curve-maintenance') {
    const service = report.summary?.serviceCount;
    const cof = report.summary?.cofCount;
    return typeof service === 'number' && typeof cof === 'number' ? `${service} service, ${cof} CoF` : '';
  }
  const count = report.recordCount === null ? '' : report.kind === 'sse-cof-pdf' ? `${report.recordCount} CoF measurements` : `${report.recordCount} records`;
  const size = report.fileSizeBytes === null ? '' : fileSizeText(report.fileSizeBytes);
  return [count, size].filter(Boolean).join(', ');
}

/**
 * The user's reports of one kind still kept on the server: downloaded again as they were made,
 * not remade. A PDF (up to 100 MB) goes by a plain link to the browser's download manager; the
 * small XLSX is fetched, so a failure can say so in a toast.
 */
export function RecentReports({ kind }: { kind: ReportKind }) {
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
              <span className="flex min-w-0 flex-col">
                <span className="font-semibold break-words text-slate-900">{describe(report)}</span>
                <span className="text-sm text-slate-700">
                  {[when.format(new Date(report.createdAt)), figures(report), `kept until ${when.format(new Date(report.expiresAt))}`].filter(Boolean).join(' · ')}
                </span>
              </span>
              {report.kind === 'curve-maintenance' ? (
                <Button
                  variant="outline"
                  size="sm"
                  onClick={() => download.mutate(report)}
                  disabled={download.isPending}
                  aria-label={`Download ${report.fileName ?? 'report'}`}
                >
                  Download
                </Button>
              ) : (
                <a href={report.downloadUrl} download className={buttonClasses('outline', 'sm')} aria-label={`Download ${report.fileName ?? 'report'}`}>
                  Download
                </a>
              )}
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
