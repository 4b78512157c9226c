import { Trans, useLingui } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import type { PublicUser } from '../../../../../common/schemas/auth.js';
import { Input } from '../../../components/ui/input.js';
import { FieldError, Label } from '../../../components/ui/label.js';
import { cn } from '../../../lib/cn.js';
import { FilterSelect, type SelectOption } from '../../../components/ui/filter-select.js';
import { useRegisterFilters } from '../register/index.js';
import { selectClasses } from '../../../components/ui/select-classes.js';
import { parseTechnicians, TECHNICIANS_KEY, TECHNICIANS_STALE_MS } from '../records/index.js';
import { sseChoices } from './reports-api.js';

/** A Client's reports are always their own division's; everyone else starts at `adminStart`. */
export const startDivision = (user: PublicUser, adminStart: string): string =>
  user.role === 'Client' ? (user.divisionAccess ?? '') : adminStart;

/**
 * The division of a report. An Admin chooses from `choices` after the `first` choice; a
 * Client sees their own division, locked (docs/functional-requirements.md, 'Roles').
 */
export function DivisionField({
  id,
  user,
  value,
  onChange,
  first,
  choices,
}: {
  id: string;
  user: PublicUser;
  value: string;
  onChange: (value: string) => void;
  first: SelectOption;
  choices: readonly (SelectOption | string)[];
}) {
  const { t } = useLingui();
  if (user.role === 'Client') {
    return (
      <div>
        <Label htmlFor={id}>
          <Trans>Division</Trans>
        </Label>
        <select id={id} value={value} disabled className={cn(selectClasses(false), 'mt-1')}>
          <option value={value}>{value || t`No division assigned`}</option>
        </select>
      </div>
    );
  }
  return <FilterSelect id={id} label={t`Division`} value={value} onChange={onChange} all={first} options={choices} />;
}

export interface DateRange {
  fromDate: string;
  toDate: string;
}
export const NO_DATES: DateRange = { fromDate: '', toDate: '' };

export const datesReversed = ({ fromDate, toDate }: DateRange): boolean => fromDate !== '' && toDate !== '' && toDate < fromDate;

/** The dates as the request takes them: left out when not chosen. */
export const dateBody = ({ fromDate, toDate }: DateRange): { fromDate?: string; toDate?: string } => ({
  ...(fromDate === '' ? {} : { fromDate }),
  ...(toDate === '' ? {} : { toDate }),
});

/** From and To dates (YYYY-MM-DD); a reversed range, or the server's word on a date, shows under it. */
export function DateRangeFields({
  idPrefix,
  value,
  onChange,
  errors,
}: {
  idPrefix: string;
  value: DateRange;
  onChange: (value: DateRange) => void;
  errors: Record<string, string>;
}) {
  const { t } = useLingui();
  const fromError = errors.fromDate;
  const toError = datesReversed(value) ? t`To date must be on or after From date` : errors.toDate;
  return (
    <>
      <div>
        <Label htmlFor={`${idPrefix}-from`}>
          <Trans>From date</Trans>
        </Label>
        <Input
          id={`${idPrefix}-from`}
          type="date"
          value={value.fromDate}
          max={value.toDate || undefined}
          invalid={fromError !== undefined}
          aria-describedby={fromError ? `${idPrefix}-from-error` : undefined}
          onChange={(e) => onChange({ ...value, fromDate: e.target.value })}
          className="mt-1"
        />
        <FieldError id={`${idPrefix}-from-error`} message={fromError} />
      </div>
      <div>
        <Label htmlFor={`${idPrefix}-to`}>
          <Trans>To date</Trans>
        </Label>
        <Input
          id={`${idPrefix}-to`}
          type="date"
          value={value.toDate}
          min={value.fromDate || undefined}
          invalid={toError !== undefined}
          aria-describedby={toError ? `${idPrefix}-to-error` : undefined}
          onChange={(e) => onChange({ ...value, toDate: e.target.value })}
          className="mt-1"
        />
        <FieldError id={`${idPrefix}-to-error`} message={toError} />
      </div>
    </>
  );
}

/** The technicians (GET /api/technicians, 5 minutes), 'All technicians' first; '' means all. */
export function TechnicianField({ id, value, onChange }: { id: string; value: string; onChange: (employeeId: string) => void }) {
  const { t } = useLingui();
  const technicians = useQuery({ queryKey: TECHNICIANS_KEY, select: parseTechnicians, staleTime: TECHNICIANS_STALE_MS });
  return (
    <FilterSelect
      id={id}
      label={t`Technician`}
      value={value}
      onChange={onChange}
      all={{ value: '', label: t`All technicians` }}
      options={(technicians.data ?? []).map((technician) => ({
        value: technician.employeeId,
        label: technician.name === technician.employeeId ? technician.employeeId : `${technician.name} (${technician.employeeId})`,
      }))}
    />
  );
}

/** The SSEs of the division's curves (GET /api/register-filters), 'All SSEs' first; '' means all. */
export function SseField({ id, division, value, onChange }: { id: string; division: string; value: string; onChange: (sse: string) => void }) {
  const { t } = useLingui();
  const filters = useRegisterFilters(division === 'all' ? '' : division);
  const sses = sseChoices(filters.data?.sses ?? []);
  // A chosen SSE stays shown while the list loads (or after a division change left it out).
  const options = value !== '' && !sses.includes(value) ? [value, ...sses] : sses;
  return <FilterSelect id={id} label={t`SSE`} value={value} onChange={onChange} all={{ value: '', label: t`All SSEs` }} options={options} />;
}
