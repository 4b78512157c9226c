import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { Station } from '../../../../../common/schemas/reference.js';
import type { StationField } from '../../../../../common/schemas/register.js';
import { Button } from '../../../components/ui/button.js';
import {
  createStation,
  deleteStation,
  invalidateRegister,
  NO_STATION_FILTERS,
  parseStationPage,
  type StationBody,
  type StationFiltersValue,
  stationsPageUrl,
  updateStation,
} from './register-api.js';
import { type FormField, type FormValues, RegisterFormDialog } from './register-form-dialog.js';
import { ItemActions, RegisterDeleteDialog, RegisterFilterBar, RegisterResults, useRegisterFilters, useRegisterPage } from './register-list.js';
import { stationsShown } from './register-texts.js';

function stationFields(sections: readonly string[]): FormField<StationField>[] {
  return [
    { name: 'no', label: msg`No.`, required: true, kind: 'whole' },
    { name: 'stationCode', label: msg`Station Code`, required: true },
    { name: 'stationName', label: msg`Station Name`, required: true, wide: true },
    { name: 'divisionRailway', label: msg`Division/Railway`, required: true, kind: 'division' },
    { name: 'section', label: msg`Section`, required: true, suggestions: sections },
  ];
}

function valuesOf(station: Station | null, filters: StationFiltersValue): FormValues<StationField> {
  return {
    no: station ? String(station.no) : '',
    stationCode: station?.stationCode ?? '',
    stationName: station?.stationName ?? '',
    divisionRailway: station?.divisionRailway ?? filters.division,
    section: station?.section ?? filters.section,
  };
}

type Editing = { kind: 'add' } | { kind: 'edit'; station: Station } | null;

/** One station of the list: its name, code and place, Edit and Delete. */
function StationCard({ station, onEdit, onDelete }: { station: Station; onEdit: () => void; onDelete: () => void }) {
  const { t } = useLingui();
  const { stationName, stationCode, no } = station;
  return (
    <article aria-label={t`Station ${stationName} (${stationCode})`} className="flex h-full flex-col gap-3 rounded-xl border border-slate-300 bg-white p-4 shadow-sm">
      <div>
        <h3 className="text-lg font-bold break-words text-slate-900">
          {stationName} <span className="font-mono text-base font-semibold text-slate-700">({stationCode})</span>
        </h3>
        <p className="text-sm text-slate-700">
          {station.section} · {station.divisionRailway} · <Trans>No. {no}</Trans>
        </p>
      </div>
      <ItemActions name={t`station ${stationName}`} onEdit={onEdit} onDelete={onDelete} />
    </article>
  );
}

/** The spec's delete question, then the delete and its toast. */
function StationDeleteDialog({ station, onDone }: { station: Station; onDone: () => void }) {
  const { t } = useLingui();
  const { stationName, stationCode, no } = station;
  return (
    <RegisterDeleteDialog
      item={station}
      question={t`Are you sure you want to delete station ${stationName} at No. ${no}?`}
      remove={deleteStation}
      deletedTitle={t`Station Deleted`}
      deletedText={t`${stationName} (${stationCode}) has been deleted.`}
      failedText={t`Failed to delete station`}
      onDone={onDone}
    />
  );
}

/** station-details: the register's stations, 20 at a time, with add, edit and delete. */
export function StationDetailsView() {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const { filters, apply, page, setPage, list } = useRegisterPage(NO_STATION_FILTERS, stationsPageUrl, (body) => {
    const { stations, total } = parseStationPage(body);
    return { rows: stations, total };
  });
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<Station | null>(null);
  const lists = useRegisterFilters(filters.division);
  const fields = stationFields([...new Set((lists.data?.sections ?? []).map((s) => s.section))]);
  const adding = editing?.kind === 'add';

  const savedText = ({ stationName, stationCode }: Station) =>
    adding ? t`${stationName} (${stationCode}) has been created.` : t`${stationName} (${stationCode}) has been updated.`;

  return (
    <div className="flex flex-col gap-4">
      <div className="flex justify-end">
        <Button onClick={() => setEditing({ kind: 'add' })}>{t`Add New Station`}</Button>
      </div>
      <RegisterFilterBar applied={filters} onApply={apply} searchLabel={t`Search station name or code`} />
      <RegisterResults
        list={list}
        page={page}
        onPage={setPage}
        loadingText={t`Loading stations...`}
        failedText={t`Failed to load stations`}
        emptyText={t`No stations match the selected filters`}
        summary={stationsShown}
      >
        {(stations) => (
          <ul aria-label={t`Stations`} className="grid grid-cols-1 gap-3 lg:grid-cols-2">
            {stations.map((station) => (
              <li key={station.id}>
                <StationCard station={station} onEdit={() => setEditing({ kind: 'edit', station })} onDelete={() => setDeleting(station)} />
              </li>
            ))}
          </ul>
        )}
      </RegisterResults>
      {editing ? (
        <RegisterFormDialog<StationField, Station>
          title={adding ? t`Add New Station` : t`Edit Station Details`}
          submitLabel={adding ? t`Create Station` : t`Save Changes`}
          busyLabel={adding ? t`Creating...` : t`Saving...`}
          fields={fields}
          initial={valuesOf(editing.kind === 'edit' ? editing.station : null, filters)}
          save={(body) => (editing.kind === 'add' ? createStation(body as StationBody) : updateStation(editing.station.id, body as StationBody))}
          successTitle={adding ? t`Station Created` : t`Station Updated`}
          successText={savedText}
          failedText={adding ? t`Failed to create station` : t`Failed to update station`}
          onSaved={() => {
            setEditing(null);
            void invalidateRegister(queryClient);
          }}
          onClose={() => setEditing(null)}
        />
      ) : null}
      {deleting ? <StationDeleteDialog station={deleting} onDone={() => setDeleting(null)} /> : null}
    </div>
  );
}
