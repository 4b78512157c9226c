import { t } from '@lingui/core/macro';
import { useLingui } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import { useMutation, useQuery } from '@tanstack/react-query';
import { INSPECTION_TYPES } from '../../../../../common/constants.js';
import type { ReportKind, ReportSummary } from '../../../../../common/schemas/reports.js';
import { Button, buttonClasses } from '../../../components/ui/button.js';
import { Card, CardDescription, CardTitle } from '../../../components/ui/card.js';
import { toast } from '../../../components/ui/toast-store.js';
import { failureText } from '../../../lib/api-failure.js';
import { saveFile } from '../records/index.js';
import { intlLocale } from '../../../lib/i18n.js';
import { fileSizeText, inspectionTypeLabel } from './report-texts.js';
import { downloadReport, parseRecentReports, recentReportsUrl } from './reports-api.js';

/** A moment as people read it here: "23 Nov 2026, 12:00", in the language shown. */
const whenText = (iso: string) => new Intl.DateTimeFormat(intlLocale(), { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));

/** A chosen filter value, or null where the report was not narrowed by it ('', 'all', absent). */
function chosen(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' && value.toLowerCase() !== 'all' ? value : null;
}

function dateRange(params: ReportSummary['params']): string {
  const from = chosen(params.fromDate);
  const to = chosen(params.toDate);
  if (from && to) return t`${from} to ${to}`;
  if (from) return t`from ${from}`;
  if (to) return t`until ${to}`;
  return t`all dates`;
}

/** A stored type (Service, CoF) in the reader's language; anything else as it is. */
function typeText(value: unknown): string | null {
  const type = chosen(value);
  const known = INSPECTION_TYPES.find((candidate) => candidate === type);
  return known ? inspectionTypeLabel(known) : type;
}

function stateText(value: unknown): string {
  const state = chosen(value);
  if (state === null || state === 'open') return t`open`;
  return state === 'closed' ? t`closed` : state;
}

/** The analytics report's grain (week, month: always one of them, the server fills it in). */
function grainText(value: unknown): string {
  const grain = chosen(value);
  if (grain === 'week') return t`by week`;
  if (grain === 'month') return t`by month`;
  return grain ?? '';
}

/** What was asked for, in a line: the division and the kind's own filters. */
function describe(report: ReportSummary): string {
  const { params } = report;
  const division = chosen(params.division) ?? t`All divisions`;
  const allSections = () => t`all sections`;
  const allSses = () => t`all SSEs`;
  const allTechnicians = () => t`all technicians`;
  switch (report.kind) {
    case 'curve-maintenance':
      return `${division}, ${chosen(params.section) ?? allSections()}`;
    case 'inspection-pdf':
      return [
        division,
        typeText(params.type) ?? t`Service and CoF`,
        chosen(params.technicianId) ?? allTechnicians(),
        dateRange(params),
        params.order === 'curve' ? t`by curve` : null,
      ]
        .filter(Boolean)
        .join(', ');
    case 'sse-cof-pdf':
      return [division, chosen(params.sseEngineer) ?? allSses(), dateRange(params)].join(', ');
    case 'service-table-pdf':
      return [division, chosen(params.technician) ?? allTechnicians(), chosen(params.sseEngineer) ?? allSses(), dateRange(params)].join(', ');
    case 'machine-dashboard':
      return [division, chosen(params.den) ?? t`all DENs`, chosen(params.aen) ?? t`all AENs`].join(', ');
    case 'follow-up-actions':
      return [division, chosen(params.section) ?? allSections(), chosen(params.kind) ?? t`all faults`, stateText(params.state)].join(', ');
    case 'analytics-pdf': {
      const from = chosen(params.from) ?? '';
      const to = chosen(params.to) ?? '';
      return [division, chosen(params.section) ?? allSections(), chosen(params.sse) ?? allSses(), t`${from} to ${to}`, grainText(params.by)].join(', ');
    }
  }
}

function figures(report: ReportSummary): string {
  if (report.kind === 'curve-maintenance') {
    const service = report.summary?.serviceCount;
    const cof = report.summary?.cofCount;
    return typeof service === 'number' && typeof cof === 'number' ? t`${service} service, ${cof} CoF` : '';
  }
  const { recordCount } = report;
  const count = recordCount === null ? '' : report.kind === 'sse-cof-pdf' ? t`${recordCount} CoF measurements` : t`${recordCount} records`;
  const size = report.fileSizeBytes === null ? '' : fileSizeText(report.fileSizeBytes);
  return [count, size].filter(Boolean).join(', ');
}

function keptUntil(iso: string): string {
  const until = whenText(iso);
  return t`kept until ${until}`;
}

/** The file's name where the server gave one. */
function downloadLabel(report: ReportSummary): string {
  const name = report.fileName ?? t`report`;
  return t`Download ${name}`;
}

/**
 * The user's reports of one kind still kept on the server: downloaded again as they were made,
 * not remade. A PDF (up to 100 MB) goes by a plain link to the browser's download manager; the
 * small XLSX is fetched, so a failure can say so in a toast.
 */
export function RecentReports({ kind }: { kind: ReportKind }) {
  // The lines below are made with the texts of the language shown: render again when it changes.
  useLingui();
  const recent = useQuery({ queryKey: [recentReportsUrl(kind)], select: parseRecentReports, staleTime: 0 });
  const download = useMutation({
    mutationFn: (report: ReportSummary) => downloadReport(report.reportId, report.fileName ?? `${report.reportId}.xlsx`),
    onSuccess: saveFile,
    onError: (error) => toast({ variant: 'destructive', title: t`Download Failed`, description: failureText(t`Failed to download report`, error) }),
  });
  const reports = (recent.data ?? []).filter((r) => r.status === 'done');
  return (
    <Card aria-labelledby="recent-reports-title">
      <CardTitle id="recent-reports-title">
        <Trans>Your recent reports</Trans>
      </CardTitle>
      {recent.isPending ? (
        <p className="mt-2 text-base text-slate-700">
          <Trans>Loading your reports...</Trans>
        </p>
      ) : recent.isError ? (
        <p role="alert" className="mt-2 text-base font-medium text-red-700">
          {failureText(t`Failed to load your reports`, recent.error)}
        </p>
      ) : reports.length === 0 ? (
        <CardDescription className="mt-1">
          <Trans>Reports you generate are kept here for download for a few days.</Trans>
        </CardDescription>
      ) : (
        <ul className="mt-2 flex flex-col divide-y divide-slate-200" aria-label={t`Your recent reports`}>
          {reports.map((report) => (
            <li key={report.reportId} className="flex flex-wrap items-center justify-between gap-2 py-2">
              <span className="flex min-w-0 flex-col">
                <span className="font-semibold break-words text-slate-900">{describe(report)}</span>
                <span className="text-sm text-slate-700">
                  {[whenText(report.createdAt), figures(report), keptUntil(report.expiresAt)].filter(Boolean).join(' · ')}
                </span>
              </span>
              {report.kind === 'curve-maintenance' ? (
                <Button
                  variant="outline"
                  size="sm"
                  onClick={() => download.mutate(report)}
                  disabled={download.isPending}
                  aria-label={downloadLabel(report)}
                >
                  <Trans>Download</Trans>
                </Button>
              ) : (
                <a href={report.downloadUrl} download className={buttonClasses('outline', 'sm')} aria-label={downloadLabel(report)}>
                  <Trans>Download</Trans>
                </a>
              )}
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
