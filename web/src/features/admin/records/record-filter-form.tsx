import { useLingui } from '@lingui/react/macro';
import { type FormEvent, useState } from 'react';
import { DIVISIONS, INSPECTION_TYPES } from '../../../../../common/constants.js';
import type { Technician } from '../../../../../common/schemas/reference.js';
import { Button } from '../../../components/ui/button.js';
import { Card, CardTitle } from '../../../components/ui/card.js';
import { Input } from '../../../components/ui/input.js';
import { FieldError, Label } from '../../../components/ui/label.js';
import { cn } from '../../../lib/cn.js';
import { FilterSelect } from '../../../components/ui/filter-select.js';
import { hasFilters, NO_FILTERS, type RecordFilters } from './record-query.js';
import { INSPECTION_TYPE_TEXTS } from '../../../lib/value-labels.js';

const MORE_KEYS = ['from', 'to', 'type', 'division', 'section', 'curveNumber', 'technicianId'] as const satisfies readonly (keyof RecordFilters)[];

/**
 * The filters as a draft: nothing is asked of the server until Apply (or Enter), so typing a
 * section name does not send a query per letter. The parent remounts this form (key) when
 * the applied filters change elsewhere (Back, Clear), so the draft always starts from them.
 */
export function RecordFilterForm({
  applied,
  technicians,
  onApply,
}: {
  applied: RecordFilters;
  technicians: readonly Technician[];
  onApply: (filters: RecordFilters) => void;
}) {
  const { i18n, t } = useLingui();
  const [draft, setDraft] = useState<RecordFilters>(applied);
  const [dateError, setDateError] = useState<string | undefined>(undefined);
  // On a phone only the record ID search shows at first, so the records start on the first
  // screen; the rest opens on demand, or by itself when one of them is in use.
  const moreInUse = MORE_KEYS.filter((key) => applied[key] !== '').length;
  const [moreOpen, setMoreOpen] = useState(moreInUse > 0);
  const set = <K extends keyof RecordFilters>(key: K, value: RecordFilters[K]) => setDraft((d) => ({ ...d, [key]: value }));

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (draft.from !== '' && draft.to !== '' && draft.to < draft.from) {
      setDateError(t`To must be on or after From`);
      return;
    }
    setDateError(undefined);
    onApply(draft);
  };

  // A technician named in the URL but not (yet) in the list still shows as chosen.
  const technicianOptions =
    draft.technicianId !== '' && !technicians.some((tech) => tech.employeeId === draft.technicianId)
      ? [...technicians, { employeeId: draft.technicianId, name: draft.technicianId }]
      : technicians;

  return (
    <Card aria-labelledby="record-filters-title">
      <CardTitle id="record-filters-title">{t`Filters`}</CardTitle>
      <form
        role="search"
        aria-labelledby="record-filters-title"
        noValidate
        onSubmit={onSubmit}
        className="mt-3 grid grid-cols-2 gap-3 lg:grid-cols-4"
      >
        <div className="col-span-2 lg:col-span-2">
          <Label htmlFor="filter-q">{t`Record ID`}</Label>
          <Input
            id="filter-q"
            type="search"
            placeholder={t`e.g. INS-20261121 or 7KQ2XM`}
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            maxLength={64}
            value={draft.q}
            onChange={(e) => set('q', e.target.value)}
            className="mt-1"
          />
        </div>
        <div className="col-span-2 lg:hidden">
          <Button
            variant="ghost"
            size="sm"
            aria-expanded={moreOpen}
            aria-controls="more-record-filters"
            onClick={() => setMoreOpen((open) => !open)}
            className="w-full justify-between border border-slate-300"
          >
            {moreInUse > 0 ? t`More Filters (${moreInUse} in use)` : t`More Filters`}
            <span aria-hidden="true">{moreOpen ? '▴' : '▾'}</span>
          </Button>
        </div>
        {/* On a desktop these are always shown, as cells of the form's own grid (contents). */}
        <div id="more-record-filters" className={cn('col-span-2 grid-cols-2 gap-3 lg:contents', moreOpen ? 'grid' : 'hidden')}>
          <div>
            <Label htmlFor="filter-from">{t`From`}</Label>
            <Input id="filter-from" type="date" value={draft.from} onChange={(e) => set('from', e.target.value)} className="mt-1" />
          </div>
          <div>
            <Label htmlFor="filter-to">{t`To`}</Label>
            <Input
              id="filter-to"
              type="date"
              value={draft.to}
              min={draft.from || undefined}
              invalid={dateError !== undefined}
              aria-describedby={dateError ? 'filter-to-error' : undefined}
              onChange={(e) => set('to', e.target.value)}
              className="mt-1"
            />
            <FieldError id="filter-to-error" message={dateError} />
          </div>
          <FilterSelect
            id="filter-type"
            label={t`Type`}
            value={draft.type}
            onChange={(value) => set('type', INSPECTION_TYPES.find((type) => type === value) ?? '')}
            all={{ value: '', label: t`All types` }}
            options={INSPECTION_TYPES.map((type) => ({ value: type, label: i18n._(INSPECTION_TYPE_TEXTS[type]) }))}
          />
          <FilterSelect
            id="filter-division"
            label={t`Division/Railway`}
            value={draft.division}
            onChange={(value) => set('division', value)}
            all={{ value: '', label: t`All divisions` }}
            options={DIVISIONS}
          />
          <div>
            <Label htmlFor="filter-section">{t`Section`}</Label>
            <Input
              id="filter-section"
              autoComplete="off"
              maxLength={100}
              value={draft.section}
              onChange={(e) => set('section', e.target.value)}
              className="mt-1"
            />
          </div>
          <div>
            <Label htmlFor="filter-curveNumber">{t`Curve Number`}</Label>
            <Input
              id="filter-curveNumber"
              autoComplete="off"
              maxLength={50}
              value={draft.curveNumber}
              onChange={(e) => set('curveNumber', e.target.value)}
              className="mt-1"
            />
          </div>
          <FilterSelect
            id="filter-technician"
            label={t`Technician`}
            className="col-span-2"
            value={draft.technicianId}
            onChange={(value) => set('technicianId', value)}
            all={{ value: '', label: t`All technicians` }}
            // Names and IDs are data, shown as stored.
            options={technicianOptions.map((tech) => ({
              value: tech.employeeId,
              label: tech.name === tech.employeeId ? tech.employeeId : `${tech.name} (${tech.employeeId})`,
            }))}
          />
        </div>
        <div className="col-span-2 grid grid-cols-2 gap-3 self-end">
          <Button type="submit">{t`Apply Filters`}</Button>
          <Button
            variant="outline"
            disabled={!hasFilters(draft) && !hasFilters(applied)}
            onClick={() => {
              setDateError(undefined);
              setDraft(NO_FILTERS);
              onApply(NO_FILTERS);
            }}
          >
            {t`Clear Filters`}
          </Button>
        </div>
      </form>
    </Card>
  );
}
