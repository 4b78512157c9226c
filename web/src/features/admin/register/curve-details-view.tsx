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
import { REGISTER_TEXTS } from './register-texts.js';

function curveFields(sections: readonly string[], sses: readonly string[]): FormField<CurveField>[] {
  return [
    { name: 'no', label: 'No.', required: true, kind: 'whole' },
    { name: 'divisionRailway', label: 'Division/Railway', required: true, kind: 'division' },
    { name: 'section', label: 'Section', required: true, suggestions: sections },
    { name: 'curveNumber', label: 'Curve Number', required: true },
    { name: 'line', label: 'Line', required: true, kind: 'line' },
    { name: 'hkmCode', label: 'HKM Code', kind: 'whole' },
    { name: 'kmFrom', label: 'Km From', kind: 'whole' },
    { name: 'metFrom', label: 'Met From', kind: 'whole' },
    { name: 'kmTo', label: 'Km To', kind: 'whole' },
    { name: 'metTo', label: 'Met To', kind: 'whole' },
    { name: 'length', label: 'Length (m)', kind: 'whole' },
    { name: 'degree', label: 'Degree', kind: 'decimal' },
    { name: 'station1', label: 'Station 1' },
    { name: 'station2', label: 'Station 2' },
    { name: 'sse', label: 'SSE', suggestions: sses },
    { name: 'aen', label: 'AEN' },
    { name: 'den', label: 'DEN', wide: true },
    { name: 'comments', label: 'Comments', kind: 'comments' },
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

/** curve-details: the register's curves, 20 at a time, with add, edit and delete. */
export function CurveDetailsView() {
  const queryClient = useQueryClient();
  const { filters, apply, page, setPage, list } = useRegisterPage(NO_CURVE_FILTERS, curvesPageUrl, (body) => {
    const { curves, total } = parseCurvePage(body);
    return { rows: curves, total };
  });
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<Curve | null>(null);
  const lists = useRegisterFilters(filters.division);
  const fields = curveFields([...new Set((lists.data?.sections ?? []).map((s) => s.section))], lists.data?.sses ?? []);

  return (
    <div className="flex flex-col gap-4">
      <div className="flex justify-end">
        <Button onClick={() => setEditing({ kind: 'add' })}>{REGISTER_TEXTS.addCurve}</Button>
      </div>
      <RegisterFilterBar
        applied={filters}
        onApply={apply}
        searchLabel="Search curve, HKM code or station"
        extra={(sses) => (
          <FilterSelect
            id="register-sse"
            label="SSE"
            value={filters.sse}
            onChange={(sse) => apply({ ...filters, sse })}
            all={{ value: '', label: 'All SSEs' }}
            options={sses}
          />
        )}
      />
      <RegisterResults list={list} page={page} onPage={setPage} what="curves" emptyText={REGISTER_TEXTS.noCurves} summary={REGISTER_TEXTS.curvesShown}>
        {(curves) => (
          <ul aria-label="Curve records" className="grid grid-cols-1 gap-3 lg:grid-cols-2">
            {curves.map((curve) => (
              <li key={curve.id}>
                <article
                  aria-label={`Curve ${curve.curveNumber} ${curve.line}, ${curve.section}`}
                  className="flex h-full flex-col gap-3 rounded-xl border border-slate-300 bg-white p-4 shadow-sm"
                >
                  <div>
                    <h3 className="text-lg font-bold break-words text-slate-900">
                      Curve {curve.curveNumber} · {curve.line}
                    </h3>
                    <p className="text-sm text-slate-700">
                      {curve.section} · {curve.divisionRailway} · No. {curve.no}
                    </p>
                  </div>
                  <dl className="grid grid-cols-2 gap-x-4 gap-y-2 sm:grid-cols-3">
                    <Fact label="HKM Code" value={curve.hkmCode} />
                    <Fact label="Km" value={[chainage(curve.kmFrom, curve.metFrom), chainage(curve.kmTo, curve.metTo)].filter(Boolean).join(' – ')} />
                    <Fact label="Length (m)" value={curve.length} />
                    <Fact label="Stations" value={[curve.station1, curve.station2].filter(Boolean).join(' – ')} />
                    <Fact label="SSE" value={curve.sse} />
                    <Fact label="Degree" value={curve.degree} />
                  </dl>
                  <ItemActions
                    name={`curve ${curve.curveNumber} ${curve.line}`}
                    onEdit={() => setEditing({ kind: 'edit', curve })}
                    onDelete={() => setDeleting(curve)}
                  />
                </article>
              </li>
            ))}
          </ul>
        )}
      </RegisterResults>
      {editing ? (
        <RegisterFormDialog<CurveField, Curve>
          title={editing.kind === 'add' ? REGISTER_TEXTS.addCurve : REGISTER_TEXTS.editCurve}
          submitLabel={editing.kind === 'add' ? 'Create Curve' : 'Save Changes'}
          busyLabel={editing.kind === 'add' ? REGISTER_TEXTS.creating : REGISTER_TEXTS.saving}
          fields={fields}
          initial={valuesOf(editing.kind === 'edit' ? editing.curve : null, filters.division)}
          save={(body) => (editing.kind === 'add' ? createCurve(body as CurveBody) : updateCurve(editing.curve, body as CurveBody))}
          successTitle={editing.kind === 'add' ? REGISTER_TEXTS.curveCreated : REGISTER_TEXTS.curveUpdated}
          successText={(curve) => `Curve ${curve.curveNumber} (${curve.line}) in section ${curve.section} has been ${editing.kind === 'add' ? 'created' : 'updated'}.`}
          failedText={editing.kind === 'add' ? REGISTER_TEXTS.createCurveFailed : REGISTER_TEXTS.updateCurveFailed}
          onSaved={() => {
            setEditing(null);
            void invalidateRegister(queryClient);
          }}
          onClose={() => setEditing(null)}
        />
      ) : null}
      {deleting ? (
        <RegisterDeleteDialog
          item={deleting}
          question={REGISTER_TEXTS.deleteCurveQuestion(deleting.curveNumber, deleting.section)}
          remove={deleteCurve}
          deletedTitle={REGISTER_TEXTS.curveDeleted}
          deletedText={`Curve ${deleting.curveNumber} (${deleting.line}) in section ${deleting.section} has been deleted.`}
          failedText={REGISTER_TEXTS.deleteCurveFailed}
          onDone={() => setDeleting(null)}
        />
      ) : null}
    </div>
  );
}
