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
import { REGISTER_TEXTS } from './register-texts.js';

function stationFields(sections: readonly string[]): FormField<StationField>[] {
  return [
    { name: 'no', label: 'No.', required: true, kind: 'whole' },
    { name: 'stationCode', label: 'Station Code', required: true },
    { name: 'stationName', label: 'Station Name', required: true, wide: true },
    { name: 'divisionRailway', label: 'Division/Railway', required: true, kind: 'division' },
    { name: 'section', label: 'Section', required: true, suggestions: sections },
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

/** station-details: the register's stations, 20 at a time, with add, edit and delete. */
export function StationDetailsView() {
  const queryClient = useQueryClient();
  const { filters, apply, page, setPage, list } = useRegisterPage(NO_STATION_FILTERS, stationsPageUrl, (body) => {
    const { stations, total } = parseStationPage(body);
    return { rows: stations, total };
  });
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<Station | null>(null);
  const lists = useRegisterFilters(filters.division);
  const fields = stationFields([...new Set((lists.data?.sections ?? []).map((s) => s.section))]);

  return (
    <div className="flex flex-col gap-4">
      <div className="flex justify-end">
        <Button onClick={() => setEditing({ kind: 'add' })}>{REGISTER_TEXTS.addStation}</Button>
      </div>
      <RegisterFilterBar applied={filters} onApply={apply} searchLabel="Search station name or code" />
      <RegisterResults list={list} page={page} onPage={setPage} what="stations" emptyText={REGISTER_TEXTS.noStations} summary={REGISTER_TEXTS.stationsShown}>
        {(stations) => (
          <ul aria-label="Stations" className="grid grid-cols-1 gap-3 lg:grid-cols-2">
            {stations.map((station) => (
              <li key={station.id}>
                <article
                  aria-label={`Station ${station.stationName} (${station.stationCode})`}
                  className="flex h-full flex-col gap-3 rounded-xl border border-slate-300 bg-white p-4 shadow-sm"
                >
                  <div>
                    <h3 className="text-lg font-bold break-words text-slate-900">
                      {station.stationName} <span className="font-mono text-base font-semibold text-slate-700">({station.stationCode})</span>
                    </h3>
                    <p className="text-sm text-slate-700">
                      {station.section} · {station.divisionRailway} · No. {station.no}
                    </p>
                  </div>
                  <ItemActions name={`station ${station.stationName}`} onEdit={() => setEditing({ kind: 'edit', station })} onDelete={() => setDeleting(station)} />
                </article>
              </li>
            ))}
          </ul>
        )}
      </RegisterResults>
      {editing ? (
        <RegisterFormDialog<StationField, Station>
          title={editing.kind === 'add' ? REGISTER_TEXTS.addStation : REGISTER_TEXTS.editStation}
          submitLabel={editing.kind === 'add' ? 'Create Station' : 'Save Changes'}
          busyLabel={editing.kind === 'add' ? REGISTER_TEXTS.creating : REGISTER_TEXTS.saving}
          fields={fields}
          initial={valuesOf(editing.kind === 'edit' ? editing.station : null, filters)}
          save={(body) => (editing.kind === 'add' ? createStation(body as StationBody) : updateStation(editing.station.id, body as StationBody))}
          successTitle={editing.kind === 'add' ? REGISTER_TEXTS.stationCreated : REGISTER_TEXTS.stationUpdated}
          successText={(station) => `${station.stationName} (${station.stationCode}) has been ${editing.kind === 'add' ? 'created' : 'updated'}.`}
          failedText={editing.kind === 'add' ? REGISTER_TEXTS.createStationFailed : REGISTER_TEXTS.updateStationFailed}
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
          question={REGISTER_TEXTS.deleteStationQuestion(deleting.stationName, deleting.no)}
          remove={deleteStation}
          deletedTitle={REGISTER_TEXTS.stationDeleted}
          deletedText={`${deleting.stationName} (${deleting.stationCode}) has been deleted.`}
          failedText={REGISTER_TEXTS.deleteStationFailed}
          onDone={() => setDeleting(null)}
        />
      ) : null}
    </div>
  );
}
