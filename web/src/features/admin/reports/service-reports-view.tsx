import { useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { DIVISIONS } from '../../../../../common/constants.js';
import type { PublicUser } from '../../../../../common/schemas/auth.js';
import { dateBody, DateRangeFields, datesReversed, DivisionField, NO_DATES, SseField, startDivision, TechnicianField } from './report-fields.js';
import { ReportJobCard } from './report-job-card.js';
import { serviceRecordsText } from './report-texts.js';
import { useReportJob } from './use-report-job.js';

/**
 * Service Reports (spec view 'service-reports'): Service visits as a table, narrowed by
 * technician, SSE and dates, a PDF made by the server as a job.
 */
export function ServiceReportsView({ user }: { user: PublicUser }) {
  const { t } = useLingui();
  const [division, setDivision] = useState(() => startDivision(user, 'all'));
  const [technician, setTechnician] = useState('');
  const [sse, setSse] = useState('');
  const [dates, setDates] = useState(NO_DATES);
  const job = useReportJob('service-table-pdf', {
    doneTitle: t`Service Report Generated`,
    doneDescription: (count) => t`Report contains ${count} service records`,
    failed: t`Failed to generate service report`,
  });

  const onGenerate = () => {
    if (datesReversed(dates)) return;
    job.generate({
      division,
      ...(technician === '' ? {} : { technician }),
      ...(sse === '' ? {} : { sseEngineer: sse }),
      ...dateBody(dates),
    });
  };

  return (
    <ReportJobCard
      id="service-report"
      kind="service-table-pdf"
      title={t`Service Report (PDF)`}
      description={t`Service visits as a table, for a technician, an SSE's curves or a date range.`}
      countText={serviceRecordsText}
      generateLabel={t`Generate Service Report`}
      job={job}
      onGenerate={onGenerate}
      canGenerate={division !== ''}
    >
      <DivisionField
        id="service-report-division"
        user={user}
        value={division}
        onChange={job.edit((value: string) => {
          setDivision(value);
          setSse('');
        })}
        first={{ value: 'all', label: t`All divisions` }}
        choices={DIVISIONS}
      />
      <TechnicianField id="service-report-technician" value={technician} onChange={job.edit(setTechnician)} />
      <SseField id="service-report-sse" division={division} value={sse} onChange={job.edit(setSse)} />
      <DateRangeFields idPrefix="service-report" value={dates} onChange={job.edit(setDates)} errors={job.fieldErrors} />
    </ReportJobCard>
  );
}
