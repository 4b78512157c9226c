import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { Station } from '../../../../../common/schemas/reference.js';
import type { StationField } from '../../../../../common/schemas/register.js';
import { Button } from '../../../components/ui/button.js';
import { Card, CardDescription } from '../../../components/ui/card.js';
import { failureText } from '../api-failure.js';
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
import { Fact, RegisterDeleteDialog, RegisterFilterBar, RegisterPager, usePageInRange, useRegisterFilters } from './register-list.js';
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

/** Spec section 2, station-details: the register's stations, 20 at a time, with add, edit and delete. */
export function StationDetailsView() {
  const queryClient = useQueryClient();
  const [filters, setFilters] = useState<StationFiltersValue>(NO_STATION_FILTERS);
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<Station | null>(null);
  const lists = useRegisterFilters(filters.division);

  const list = useQuery({
    queryKey: [stationsPageUrl(filters, page)],
    select: parseStationPage,
    staleTime: 0,
    placeholderData: (previous) => previous,
  });
  usePageInRange(page, list.data?.stations.length, list.data?.total, setPage);

  const apply = (next: StationFiltersValue) => {
    setFilters(next);
    setPage(1);
  };
  const fields = stationFields([...new Set((lists.data?.sections ?? []).map((s) => s.section))]);

  let body;
  if (list.isPending) {
    body = <p className="text-base text-slate-700">Loading stations...</p>;
  } else if (list.isError) {
    body = (
      <p role="alert" className="text-base font-medium text-red-700">
        {failureText('Failed to load stations', list.error)}
      </p>
    );
  } else if (list.data.total === 0) {
    body = (
      <Card>
        <CardDescription className="text-base">{REGISTER_TEXTS.noStations}</CardDescription>
      </Card>
    );
  } else {
    body = (
      <>
        <RegisterPager page={page} total={list.data.total} shown={list.data.stations.length} summary={REGISTER_TEXTS.stationsShown} onPage={setPage} />
        <ul aria-label="Stations" className="grid grid-cols-1 gap-3 lg:grid-cols-2">
          {list.data.stations.map((station) => (
            <li key={station.id}>
              <article aria-label={`Station ${station.stationName} (${station.stationCode})`} className="flex h-full flex-col gap-3 rounded-xl border border-slate-300 bg-white p-4 shadow-sm">
                <div>
                  <h3 className="text-lg font-bold break-words text-slate-900">
                    {station.stationName} <span className="font-mono text-base font-semibold text-slate-700">({station.stationCode})</span>
                  </h3>
                  <p className="text-sm text-slate-700">
                    {station.section} · {station.divisionRailway}
                  </p>
                </div>
                <dl className="grid grid-cols-2 gap-x-4 gap-y-2">
                  <Fact label="No." value={station.no} />
                  <Fact label="Code" value={station.stationCode} />
                </dl>
                <div className="mt-auto grid grid-cols-2 gap-2">
                  <Button variant="outline" size="sm" onClick={() => setEditing({ kind: 'edit', station })} aria-label={`Edit station ${station.stationName}`}>
                    Edit
                  </Button>
                  <Button variant="outline" size="sm" className="text-red-800" onClick={() => setDeleting(station)} aria-label={`Delete station ${station.stationName}`}>
                    Delete
                  </Button>
                </div>
              </article>
            </li>
          ))}
        </ul>
        {list.data.total > list.data.stations.length ? (
          <RegisterPager page={page} total={list.data.total} shown={list.data.stations.length} summary={REGISTER_TEXTS.stationsShown} onPage={setPage} withSummary={false} />
        ) : null}
      </>
    );
  }

  return (
    <div className="flex flex-col gap-4">
      <div className="flex justify-end">
        <Button onClick={() => setEditing({ kind: 'add' })}>{REGISTER_TEXTS.addStation}</Button>
      </div>
      <RegisterFilterBar applied={filters} onApply={apply} searchLabel="Search station name or code" />
      <div className="flex flex-col gap-3" aria-busy={list.isFetching || undefined}>
        {body}
      </div>
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
