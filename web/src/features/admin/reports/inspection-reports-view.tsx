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
import { REPORT_TEXTS } from './report-texts.js';
import { useReportJob } from './use-report-job.js';

type Order = 'newest' | 'curve';
const ORDERS: readonly { value: Order; label: string }[] = [
  { value: 'newest', label: 'Newest first' },
  { value: 'curve', label: 'By curve' },
];

const JOB_TEXTS = { doneTitle: REPORT_TEXTS.generatedTitle, doneDescription: REPORT_TEXTS.withRecords, failed: REPORT_TEXTS.reportFailed };

/**
 * PDF Reports (spec view 'inspection-reports'): the inspections of a division and service type,
 * each with its photo, as a PDF the server makes as a job. Division and service type are
 * required (docs/functional-requirements.md, 'PDF Reports'); a Client's division is theirs and cannot be changed.
 */
export function InspectionReportsView({ user }: { user: PublicUser }) {
  const [division, setDivision] = useState(() => startDivision(user, ''));
  const [type, setType] = useState<InspectionType | ''>('');
  const [dates, setDates] = useState(NO_DATES);
  const [technicianId, setTechnicianId] = useState('');
  const [order, setOrder] = useState<Order>('newest');
  const job = useReportJob('inspection-pdf', JOB_TEXTS);
  const { edit } = job;

  const onGenerate = () => {
    if (division === '' || type === '') {
      toast({ variant: 'destructive', title: REPORT_TEXTS.missingFieldsTitle, description: REPORT_TEXTS.missingFields });
      return;
    }
    if (datesReversed(dates)) return;
    job.generate({ type, division, ...dateBody(dates), ...(technicianId === '' ? {} : { technicianId }), format: 'images', order });
  };

  return (
    <ReportJobCard
      id="inspection-report"
      kind="inspection-pdf"
      title="Inspection Report (PDF)"
      description="Inspection records with their photos. A large selection takes a few minutes; the download starts by itself when the report is ready."
      generateLabel={REPORT_TEXTS.generateReport}
      job={job}
      onGenerate={onGenerate}
      canGenerate={!(user.role === 'Client' && division === '')}
    >
      <DivisionField
        id="inspection-report-division"
        user={user}
        value={division}
        onChange={edit(setDivision)}
        first={{ value: '', label: REPORT_TEXTS.selectDivision }}
        choices={[{ value: 'all', label: REPORT_TEXTS.allDivisions }, ...DIVISIONS]}
      />
      <FilterSelect
        id="inspection-report-type"
        label="Service Type"
        value={type}
        onChange={edit((value: string) => setType(INSPECTION_TYPES.find((t) => t === value) ?? ''))}
        all={{ value: '', label: REPORT_TEXTS.selectServiceType }}
        options={INSPECTION_TYPES}
      />
      <DateRangeFields idPrefix="inspection-report" value={dates} onChange={edit(setDates)} errors={job.fieldErrors} />
      <TechnicianField id="inspection-report-technician" value={technicianId} onChange={edit(setTechnicianId)} />
      <div>
        <Label htmlFor="inspection-report-order">Order</Label>
        <select
          id="inspection-report-order"
          value={order}
          onChange={(e) => edit(setOrder)(ORDERS.find((o) => o.value === e.target.value)?.value ?? 'newest')}
          className={cn(selectClasses(false), 'mt-1')}
        >
          {ORDERS.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      </div>
    </ReportJobCard>
  );
}
