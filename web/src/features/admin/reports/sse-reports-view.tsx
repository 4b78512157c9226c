import { useState } from 'react';
import { DIVISIONS } from '../../../../../common/constants.js';
import type { PublicUser } from '../../../../../common/schemas/auth.js';
import { dateBody, DateRangeFields, datesReversed, DivisionField, NO_DATES, SseField, startDivision } from './report-fields.js';
import { ReportJobCard } from './report-job-card.js';
import { REPORT_TEXTS } from './report-texts.js';
import { useReportJob } from './use-report-job.js';

const JOB_TEXTS = { doneTitle: REPORT_TEXTS.sseGeneratedTitle, doneDescription: REPORT_TEXTS.sseContains, failed: REPORT_TEXTS.sseFailed };

/**
 * SSE CoF Measurement (spec view 'sse-reports'): the CoF measurements of an SSE's curves (or
 * all SSEs') as a table with a chart per curve, a PDF made by the server as a job.
 */
export function SseReportsView({ user }: { user: PublicUser }) {
  const [division, setDivision] = useState(() => startDivision(user, 'all'));
  const [sse, setSse] = useState('');
  const [dates, setDates] = useState(NO_DATES);
  const job = useReportJob('sse-cof-pdf', JOB_TEXTS);

  const onGenerate = () => {
    if (datesReversed(dates)) return;
    job.generate({ division, ...(sse === '' ? {} : { sseEngineer: sse }), ...dateBody(dates) });
  };

  return (
    <ReportJobCard
      id="sse-report"
      kind="sse-cof-pdf"
      title="SSE CoF Measurement Report (PDF)"
      description="CoF measurements of the curves in an SSE's charge, as a table with a chart per curve."
      recordNoun={['CoF measurement', 'CoF measurements']}
      generateLabel={REPORT_TEXTS.generateSse}
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
        first={{ value: 'all', label: REPORT_TEXTS.allDivisions }}
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
