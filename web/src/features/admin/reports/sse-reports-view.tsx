import { useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { DIVISIONS } from '../../../../../common/constants.js';
import type { PublicUser } from '../../../../../common/schemas/auth.js';
import { dateBody, DateRangeFields, datesReversed, DivisionField, NO_DATES, SseField, startDivision } from './report-fields.js';
import { ReportJobCard } from './report-job-card.js';
import { cofMeasurementsText } from './report-texts.js';
import { useReportJob } from './use-report-job.js';

/**
 * SSE CoF Measurement (spec view 'sse-reports'): the CoF measurements of an SSE's curves (or
 * all SSEs') as a table with a chart per curve, a PDF made by the server as a job.
 */
export function SseReportsView({ user }: { user: PublicUser }) {
  const { t } = useLingui();
  const [division, setDivision] = useState(() => startDivision(user, 'all'));
  const [sse, setSse] = useState('');
  const [dates, setDates] = useState(NO_DATES);
  const job = useReportJob('sse-cof-pdf', {
    doneTitle: t`SSE Report Generated`,
    doneDescription: (count) => t`Report contains ${count} CoF measurements`,
    failed: t`Failed to generate SSE report`,
  });

  const onGenerate = () => {
    if (datesReversed(dates)) return;
    job.generate({ division, ...(sse === '' ? {} : { sseEngineer: sse }), ...dateBody(dates) });
  };

  return (
    <ReportJobCard
      id="sse-report"
      kind="sse-cof-pdf"
      title={t`SSE CoF Measurement Report (PDF)`}
      description={t`CoF measurements of the curves in an SSE's charge, as a table with a chart per curve.`}
      countText={cofMeasurementsText}
      generateLabel={t`Generate SSE Report`}
      job={job}
      onGenerate={onGenerate}
      canGenerate={division !== ''}
    >
      <DivisionField
        id="sse-report-division"
        user={user}
        value={division}
        onChange={job.edit((value: string) => {
          setDivision(value);
          setSse('');
        })}
        first={{ value: 'all', label: t`All divisions` }}
        choices={DIVISIONS}
      />
      <SseField
        id="sse-report-sse"
        division={division}
        value={sse}
        onChange={job.edit(setSse)}
      />
      <DateRangeFields
        idPrefix="sse-report"
        value={dates}
        onChange={job.edit(setDates)}
        errors={job.fieldErrors}
      />
    </ReportJobCard>
  );
}
