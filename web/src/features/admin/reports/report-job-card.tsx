import { Trans, useLingui } from '@lingui/react/macro';
import { type FormEvent, type ReactNode, useEffect, useRef } from 'react';
import { buttonClasses, Button } from '../../../components/ui/button.js';
import { Card, CardDescription } from '../../../components/ui/card.js';
import { RecentReports } from './recent-reports.js';
import { readyText, recordsText, type RecordsText } from './report-texts.js';
import { ReportProgress } from './report-progress.js';
import type { PdfReportKind } from './reports-api.js';
import type { ReportJobState } from './use-report-job.js';

/**
 * The frame of a PDF report view: its filters (children), Generate, the progress while the
 * report is made, the way to download it again, and the user's recent reports of the kind.
 */
export function ReportJobCard({
  id,
  kind,
  title,
  description,
  generateLabel,
  job,
  onGenerate,
  canGenerate = true,
  countText = recordsText,
  children,
}: {
  id: string;
  kind: PdfReportKind;
  title: string;
  description: string;
  generateLabel: string;
  job: { state: ReportJobState; working: boolean };
  onGenerate: () => void;
  canGenerate?: boolean;
  /** The report's record count in words; records by default. */
  countText?: RecordsText;
  children: ReactNode;
}) {
  const { t } = useLingui();
  const { state, working } = job;
  // Generate is disabled while the report is made, which drops the keyboard focus to the page;
  // give it back to the button when the report is done, so keyboard and screen reader users
  // keep their place.
  const generateButton = useRef<HTMLButtonElement>(null);
  const wasWorking = useRef(false);
  useEffect(() => {
    const focusLost = document.activeElement === null || document.activeElement === document.body;
    if (wasWorking.current && !working && focusLost) generateButton.current?.focus();
    wasWorking.current = working;
  }, [working]);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!working) onGenerate();
  };
  return (
    <>
      <Card aria-labelledby={`${id}-title`}>
        {/* h3: the view's own heading above is the h2. */}
        <h3 id={`${id}-title`} className="text-lg font-bold text-slate-900">
          {title}
        </h3>
        <CardDescription>{description}</CardDescription>
        <form
          noValidate
          aria-labelledby={`${id}-title`}
          onSubmit={onSubmit}
          className="mt-3 grid grid-cols-1 items-start gap-3 sm:grid-cols-2 lg:grid-cols-3"
        >
          {children}
          <div className="flex flex-col sm:col-span-2 lg:col-span-3">
            <Button ref={generateButton} type="submit" className="w-full sm:w-auto sm:self-start" disabled={working || !canGenerate} aria-busy={working || undefined}>
              {working ? t`Generating...` : generateLabel}
            </Button>
          </div>
        </form>
        {state.phase === 'working' ? <ReportProgress id={`${id}-progress`} progress={state.progress} recordCount={state.recordCount} /> : null}
        {state.phase === 'done' ? (
          <div className="mt-3 flex flex-wrap items-center gap-3 rounded-lg border border-slate-300 bg-slate-50 p-3" role="status">
            <p className="text-base">{readyText(state.report, countText)}</p>
            <a href={state.report.downloadUrl} download className={buttonClasses('outline', 'sm')}>
              <Trans>Download again</Trans>
            </a>
          </div>
        ) : null}
        {state.phase === 'failed' ? <p className="mt-3 text-base font-medium text-red-700">{state.message}</p> : null}
      </Card>
      <RecentReports kind={kind} />
    </>
  );
}
