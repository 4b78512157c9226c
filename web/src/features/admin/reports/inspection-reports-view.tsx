import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import type { MessageDescriptor } from '@lingui/core';
import { useState } from 'react';
import { DIVISIONS, INSPECTION_TYPES, type InspectionType } from '../../../../../common/constants.js';
import type { PublicUser } from '../../../../../common/schemas/auth.js';
import { Label } from '../../../components/ui/label.js';
import { toast } from '../../../components/ui/toast-store.js';
import { cn } from '../../../lib/cn.js';
import { FilterSelect } from '../../../components/ui/filter-select.js';
import { selectClasses } from '../../../components/ui/select-classes.js';
import { dateBody, DateRangeFields, datesReversed, DivisionField, NO_DATES, startDivision, TechnicianField } from './report-fields.js';
import { ReportJobCard } from './report-job-card.js';
import { inspectionTypeLabel } from './report-texts.js';
import { useReportJob } from './use-report-job.js';

type Order = 'newest' | 'curve';
const ORDERS: readonly { value: Order; label: MessageDescriptor }[] = [
  { value: 'newest', label: msg`Newest first` },
  { value: 'curve', label: msg`By curve` },
];

/**
 * PDF Reports (spec view 'inspection-reports'): the inspections of a division and service type,
 * each with its photo, as a PDF the server makes as a job. Division and service type are
 * required (docs/functional-requirements.md, 'PDF Reports'); a Client's division is theirs and cannot be changed.
 */
export function InspectionReportsView({ user }: { user: PublicUser }) {
  const { t, i18n } = useLingui();
  const [division, setDivision] = useState(() => startDivision(user, ''));
  const [type, setType] = useState<InspectionType | ''>('');
  const [dates, setDates] = useState(NO_DATES);
  const [technicianId, setTechnicianId] = useState('');
  const [order, setOrder] = useState<Order>('newest');
  const job = useReportJob('inspection-pdf', {
    doneTitle: t`Report Generated`,
    doneDescription: (count) => t`with ${count} records`,
    failed: t`Failed to generate report`,
  });
  const { edit } = job;

  const onGenerate = () => {
    if (division === '' || type === '') {
      toast({
        variant: 'destructive',
        title: t`Missing Required Fields`,
        description: t`Please select both Division and Service Type to generate a report.`,
      });
      return;
    }
    if (datesReversed(dates)) return;
    job.generate({ type, division, ...dateBody(dates), ...(technicianId === '' ? {} : { technicianId }), format: 'images', order });
  };

  return (
    <ReportJobCard
      id="inspection-report"
      kind="inspection-pdf"
      title={t`Inspection Report (PDF)`}
      description={t`Inspection records with their photos. A large selection takes a few minutes; the download starts by itself when the report is ready.`}
      generateLabel={t`Generate Report`}
      job={job}
      onGenerate={onGenerate}
      canGenerate={!(user.role === 'Client' && division === '')}
    >
      <DivisionField
        id="inspection-report-division"
        user={user}
        value={division}
        onChange={edit(setDivision)}
        first={{ value: '', label: t`Select division` }}
        choices={[{ value: 'all', label: t`All divisions` }, ...DIVISIONS]}
      />
      <FilterSelect
        id="inspection-report-type"
        label={t`Service Type`}
        value={type}
        onChange={edit((value: string) => setType(INSPECTION_TYPES.find((known) => known === value) ?? ''))}
        all={{ value: '', label: t`Select service type` }}
        options={INSPECTION_TYPES.map((known) => ({ value: known, label: inspectionTypeLabel(known) }))}
      />
      <DateRangeFields idPrefix="inspection-report" value={dates} onChange={edit(setDates)} errors={job.fieldErrors} />
      <TechnicianField id="inspection-report-technician" value={technicianId} onChange={edit(setTechnicianId)} />
      <div>
        <Label htmlFor="inspection-report-order">{t`Order`}</Label>
        <select
          id="inspection-report-order"
          value={order}
          onChange={(e) => edit(setOrder)(ORDERS.find((o) => o.value === e.target.value)?.value ?? 'newest')}
          className={cn(selectClasses(false), 'mt-1')}
        >
          {ORDERS.map((o) => (
            <option key={o.value} value={o.value}>
              {i18n._(o.label)}
            </option>
          ))}
        </select>
      </div>
    </ReportJobCard>
  );
}
