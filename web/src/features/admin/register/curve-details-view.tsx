import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { Curve } from '../../../../../common/schemas/curve.js';
import type { CurveField } from '../../../../../common/schemas/register.js';
import { Button } from '../../../components/ui/button.js';
import { FilterSelect } from '../../../components/ui/filter-select.js';
import {
  createCurve,
  type CurveBody,
  curvesPageUrl,
  deleteCurve,
  invalidateRegister,
  NO_CURVE_FILTERS,
  parseCurvePage,
  updateCurve,
} from './register-api.js';
import { type FormField, type FormValues, RegisterFormDialog } from './register-form-dialog.js';
import { Fact, ItemActions, RegisterDeleteDialog, RegisterFilterBar, RegisterResults, useRegisterFilters, useRegisterPage } from './register-list.js';
import { lineLabel } from '../../../lib/value-labels.js';
import { curvesShown } from './register-texts.js';

function curveFields(sections: readonly string[], sses: readonly string[]): FormField<CurveField>[] {
  return [
    { name: 'no', label: msg`No.`, required: true, kind: 'whole' },
    { name: 'divisionRailway', label: msg`Division/Railway`, required: true, kind: 'division' },
    { name: 'section', label: msg`Section`, required: true, suggestions: sections },
    { name: 'curveNumber', label: msg`Curve Number`, required: true },
    { name: 'line', label: msg`Line`, required: true, kind: 'line' },
    { name: 'hkmCode', label: msg`HKM Code`, kind: 'whole' },
    { name: 'kmFrom', label: msg`Km From`, kind: 'whole' },
    { name: 'metFrom', label: msg`Met From`, kind: 'whole' },
    { name: 'kmTo', label: msg`Km To`, kind: 'whole' },
    { name: 'metTo', label: msg`Met To`, kind: 'whole' },
    { name: 'length', label: msg`Length (m)`, kind: 'whole' },
    { name: 'degree', label: msg`Degree`, kind: 'decimal' },
    { name: 'station1', label: msg`Station 1` },
    { name: 'station2', label: msg`Station 2` },
    { name: 'sse', label: msg`SSE`, suggestions: sses },
    { name: 'aen', label: msg`AEN` },
    { name: 'den', label: msg`DEN`, wide: true },
    { name: 'comments', label: msg`Comments`, kind: 'comments' },
  ];
}

const text = (value: string | number | null) => (value === null ? '' : String(value));

function valuesOf(curve: Curve | null, division: string): FormValues<CurveField> {
  return {
    no: text(curve?.no ?? null),
    divisionRailway: curve?.divisionRailway ?? division,
    section: curve?.section ?? '',
    curveNumber: curve?.curveNumber ?? '',
    line: curve?.line ?? '',
    hkmCode: text(curve?.hkmCode ?? null),
    kmFrom: text(curve?.kmFrom ?? null),
    metFrom: text(curve?.metFrom ?? null),
    kmTo: text(curve?.kmTo ?? null),
    metTo: text(curve?.metTo ?? null),
    length: text(curve?.length ?? null),
    degree: curve?.degree ?? '',
    station1: curve?.station1 ?? '',
    station2: curve?.station2 ?? '',
    sse: curve?.sse ?? '',
    aen: curve?.aen ?? '',
    den: curve?.den ?? '',
    comments: curve?.comments ?? '',
  };
}

const chainage = (km: number | null, met: number | null) => (km === null ? null : met === null ? `${km}` : `${km}/${met}`);

type Editing = { kind: 'add' } | { kind: 'edit'; curve: Curve } | null;

/** One curve of the list: its facts, Edit and Delete. */
function CurveCard({ curve, onEdit, onDelete }: { curve: Curve; onEdit: () => void; onDelete: () => void }) {
  const { t } = useLingui();
  const { curveNumber, section, no } = curve;
  const line = lineLabel(curve.line);
  return (
    <article aria-label={t`Curve ${curveNumber} ${line}, ${section}`} className="flex h-full flex-col gap-3 rounded-xl border border-slate-300 bg-white p-4 shadow-sm">
      <div>
        <h3 className="text-lg font-bold break-words text-slate-900">
          <Trans>
            Curve {curveNumber} · {line}
          </Trans>
        </h3>
        <p className="text-sm text-slate-700">
          {section} · {curve.divisionRailway} · <Trans>No. {no}</Trans>
        </p>
      </div>
      <dl className="grid grid-cols-2 gap-x-4 gap-y-2 sm:grid-cols-3">
        <Fact label={t`HKM Code`} value={curve.hkmCode} />
        <Fact label={t`Km`} value={[chainage(curve.kmFrom, curve.metFrom), chainage(curve.kmTo, curve.metTo)].filter(Boolean).join(' – ')} />
        <Fact label={t`Length (m)`} value={curve.length} />
        <Fact label={t`Stations`} value={[curve.station1, curve.station2].filter(Boolean).join(' – ')} />
        <Fact label={t`SSE`} value={curve.sse} />
        <Fact label={t`Degree`} value={curve.degree} />
      </dl>
      <ItemActions name={t`curve ${curveNumber} ${line}`} onEdit={onEdit} onDelete={onDelete} />
    </article>
  );
}

/** The spec's delete question, then the delete and its toast. */
function CurveDeleteDialog({ curve, onDone }: { curve: Curve; onDone: () => void }) {
  const { t } = useLingui();
  const { curveNumber, section } = curve;
  const line = lineLabel(curve.line);
  return (
    <RegisterDeleteDialog
      item={curve}
      question={t`Are you sure you want to delete curve ${curveNumber} in section ${section}?`}
      remove={deleteCurve}
      deletedTitle={t`Curve Deleted`}
      deletedText={t`Curve ${curveNumber} (${line}) in section ${section} has been deleted.`}
      failedText={t`Failed to delete curve`}
      onDone={onDone}
    />
  );
}

/** curve-details: the register's curves, 20 at a time, with add, edit and delete. */
export function CurveDetailsView() {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const { filters, apply, page, setPage, list } = useRegisterPage(NO_CURVE_FILTERS, curvesPageUrl, (body) => {
    const { curves, total } = parseCurvePage(body);
    return { rows: curves, total };
  });
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<Curve | null>(null);
  const lists = useRegisterFilters(filters.division);
  const fields = curveFields([...new Set((lists.data?.sections ?? []).map((s) => s.section))], lists.data?.sses ?? []);
  const adding = editing?.kind === 'add';

  const savedText = (curve: Curve) => {
    const { curveNumber, section } = curve;
    const line = lineLabel(curve.line);
    return adding
      ? t`Curve ${curveNumber} (${line}) in section ${section} has been created.`
      : t`Curve ${curveNumber} (${line}) in section ${section} has been updated.`;
  };

  return (
    <div className="flex flex-col gap-4">
      <div className="flex justify-end">
        <Button onClick={() => setEditing({ kind: 'add' })}>{t`Add New Curve`}</Button>
      </div>
      <RegisterFilterBar
        applied={filters}
        onApply={apply}
        searchLabel={t`Search curve, HKM code or station`}
        extra={(sses) => (
          <FilterSelect
            id="register-sse"
            label={t`SSE`}
            value={filters.sse}
            onChange={(sse) => apply({ ...filters, sse })}
            all={{ value: '', label: t`All SSEs` }}
            options={sses}
          />
        )}
      />
      <RegisterResults
        list={list}
        page={page}
        onPage={setPage}
        loadingText={t`Loading curves...`}
        failedText={t`Failed to load curves`}
        emptyText={t`No curves match the selected filters`}
        summary={curvesShown}
      >
        {(curves) => (
          <ul aria-label={t`Curve records`} className="grid grid-cols-1 gap-3 lg:grid-cols-2">
            {curves.map((curve) => (
              <li key={curve.id}>
                <CurveCard curve={curve} onEdit={() => setEditing({ kind: 'edit', curve })} onDelete={() => setDeleting(curve)} />
              </li>
            ))}
          </ul>
        )}
      </RegisterResults>
      {editing ? (
        <RegisterFormDialog<CurveField, Curve>
          title={adding ? t`Add New Curve` : t`Edit Curve Details`}
          submitLabel={adding ? t`Create Curve` : t`Save Changes`}
          busyLabel={adding ? t`Creating...` : t`Saving...`}
          fields={fields}
          initial={valuesOf(editing.kind === 'edit' ? editing.curve : null, filters.division)}
          save={(body) => (editing.kind === 'add' ? createCurve(body as CurveBody) : updateCurve(editing.curve, body as CurveBody))}
          successTitle={adding ? t`Curve Created` : t`Curve Updated`}
          successText={savedText}
          failedText={adding ? t`Failed to create curve` : t`Failed to update curve`}
          onSaved={() => {
            setEditing(null);
            void invalidateRegister(queryClient);
          }}
          onClose={() => setEditing(null)}
        />
      ) : null}
      {deleting ? <CurveDeleteDialog curve={deleting} onDone={() => setDeleting(null)} /> : null}
    </div>
  );
}
