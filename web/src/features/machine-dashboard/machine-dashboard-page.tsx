import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { MachineBreakdownRow, MachineStatsResponse } from '../../../../common/schemas/machines.js';
import { BackButton } from '../../components/ui/back-button.js';
import { Button } from '../../components/ui/button.js';
import { Card, CardDescription, CardTitle } from '../../components/ui/card.js';
import { FilterSelect } from '../../components/ui/filter-select.js';
import { Screen } from '../../components/ui/screen.js';
import { toast } from '../../components/ui/toast-store.js';
import { apiErrorMessage } from '../../lib/api-client.js';
import { visitDateText } from '../../lib/date-text.js';
import { startFileDownload } from '../../lib/file-download.js';
import {
  machineFiltersKey,
  machineReportFileUrl,
  machineStatsKey,
  parseMachineFilters,
  parseMachineStats,
  requestMachineReport,
} from './machine-api.js';
import { MACHINE_TEXTS } from './machine-texts.js';
import { percentOf, RolloutFunnel } from './rollout-funnel.js';

const TOTALS = [
  ['scope', 'Scope (curves)'],
  ['foundationCompleted', 'Foundation completed'],
  ['machinesInstalled', 'Machines installed'],
  ['machinesCommissioned', 'Machines commissioned'],
] as const;

const UNNAMED = 'Not assigned';

function TotalsGrid({ stats }: { stats: MachineStatsResponse }) {
  const { totals } = stats;
  return (
    <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4" aria-label="Totals">
      {TOTALS.map(([key, label]) => (
        <div key={key} className="rounded-xl border-2 border-slate-300 bg-white p-3">
          <dt className="text-sm text-slate-700">{label}</dt>
          <dd className="text-3xl font-bold tabular-nums text-slate-900">{totals[key].toLocaleString('en-IN')}</dd>
          {key === 'scope' || totals.scope === 0 ? null : <dd className="text-sm text-slate-700">{percentOf(totals[key], totals.scope)} of scope</dd>}
        </div>
      ))}
    </dl>
  );
}

function lastProgressText(row: MachineBreakdownRow): string {
  const latest = [row.lastProgress.foundation, row.lastProgress.installed, row.lastProgress.commissioned]
    .filter((d): d is string => d !== null)
    .sort()
    .at(-1);
  return latest ? visitDateText(latest) : '–';
}

/** The DENs (or the AENs under the chosen DEN) with their own four figures; a DEN opens its AENs. */
function BreakdownTable({ stats, onPickDen }: { stats: MachineStatsResponse; onPickDen: (den: string) => void }) {
  const { level, rows } = stats.breakdown;
  const nameOf = (row: MachineBreakdownRow) =>
    level === 'DEN' && row.name !== null ? (
      <button type="button" className="min-h-11 text-left text-brand-700 underline" onClick={() => onPickDen(row.name ?? '')}>
        {row.name}
      </button>
    ) : (
      (row.name ?? UNNAMED)
    );
  return (
    <>
      {/* A phone has no room for seven columns: one block per DEN or AEN instead. */}
      <ul className="flex flex-col divide-y divide-slate-200 sm:hidden" aria-label={level === 'DEN' ? 'Rollout by DEN' : 'Rollout by AEN'}>
        {rows.map((row) => (
          <li key={row.name ?? UNNAMED} className="py-2">
            <div className="font-semibold text-slate-900">{nameOf(row)}</div>
            <dl className="mt-1 grid grid-cols-4 gap-1 text-sm tabular-nums">
              {(
                [
                  ['Scope', row.totals.scope],
                  ['Found.', row.totals.foundationCompleted],
                  ['Installed', row.totals.machinesInstalled],
                  ['Comm.', row.totals.machinesCommissioned],
                ] as const
              ).map(([label, value]) => (
                <div key={label}>
                  <dt className="text-xs text-slate-700">{label}</dt>
                  <dd className="font-semibold text-slate-900">{value.toLocaleString('en-IN')}</dd>
                </div>
              ))}
            </dl>
            <p className="mt-1 text-xs text-slate-700">
              {percentOf(row.totals.machinesCommissioned, row.totals.scope)} commissioned · last progress {lastProgressText(row)}
            </p>
          </li>
        ))}
      </ul>
      <div className="hidden overflow-x-auto sm:block">
        <table className="w-full min-w-[40rem] border-collapse text-left text-sm">
          <caption className="sr-only">{level === 'DEN' ? 'Rollout by DEN' : 'Rollout by AEN'}</caption>
          <thead>
            <tr className="border-b-2 border-slate-300 text-slate-700">
              <th scope="col" className="py-2 pr-3">{level}</th>
              <th scope="col" className="py-2 pr-3 text-right">Scope</th>
              <th scope="col" className="py-2 pr-3 text-right">Foundation</th>
              <th scope="col" className="py-2 pr-3 text-right">Installed</th>
              <th scope="col" className="py-2 pr-3 text-right">Commissioned</th>
              <th scope="col" className="py-2 pr-3 text-right">Done</th>
              <th scope="col" className="py-2">Last progress</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.name ?? UNNAMED} className="border-b border-slate-200">
                <th scope="row" className="py-2 pr-3 font-semibold text-slate-900">
                  {nameOf(row)}
                </th>
                <td className="py-2 pr-3 text-right tabular-nums">{row.totals.scope.toLocaleString('en-IN')}</td>
                <td className="py-2 pr-3 text-right tabular-nums">{row.totals.foundationCompleted.toLocaleString('en-IN')}</td>
                <td className="py-2 pr-3 text-right tabular-nums">{row.totals.machinesInstalled.toLocaleString('en-IN')}</td>
                <td className="py-2 pr-3 text-right tabular-nums">{row.totals.machinesCommissioned.toLocaleString('en-IN')}</td>
                <td className="py-2 pr-3 text-right tabular-nums">{percentOf(row.totals.machinesCommissioned, row.totals.scope)}</td>
                <td className="py-2 whitespace-nowrap">{lastProgressText(row)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

/** docs/functional-requirements.md, 'Machine dashboard (/machine-dashboard)': rollout totals filtered by DEN and AEN, for Admins and Clients (a Client's own division only, on the server). */
export function MachineDashboardPage() {
  const [den, setDen] = useState('all');
  const [aen, setAen] = useState('all');
  // Never cached (the original contract): asked again whenever the page opens or a filter changes.
  const filters = useQuery({ queryKey: machineFiltersKey(den), select: parseMachineFilters, staleTime: 0, placeholderData: keepPreviousData });
  const stats = useQuery({ queryKey: machineStatsKey(den, aen), select: parseMachineStats, staleTime: 0, placeholderData: keepPreviousData });

  const report = useMutation({
    mutationFn: () => requestMachineReport(den, aen),
    onSuccess: ({ reportId, recordCount }) => {
      startFileDownload(machineReportFileUrl(reportId));
      toast({ title: 'Report Generated', description: `Machine report with ${recordCount} curves` });
    },
    onError: (error) => {
      toast({ variant: 'destructive', title: MACHINE_TEXTS.reportErrorTitle, description: apiErrorMessage(error, MACHINE_TEXTS.reportFailed) });
    },
  });

  const pickDen = (value: string) => {
    setDen(value);
    setAen('all');
  };

  let body;
  if (stats.isPending) {
    body = <p className="text-base text-slate-700">Loading the rollout figures...</p>;
  } else if (stats.isError) {
    body = (
      <Card>
        <p role="alert" className="text-base font-medium text-red-700">
          {apiErrorMessage(stats.error, 'Failed to load the machine figures')}
        </p>
        <Button variant="outline" size="sm" className="mt-2" onClick={() => void stats.refetch()}>
          Try Again
        </Button>
      </Card>
    );
  } else {
    const data = stats.data;
    body = (
      <>
        <TotalsGrid stats={data} />
        {data.totals.scope === 0 ? (
          <Card>
            <CardDescription className="text-base">No curves in the rollout match these filters.</CardDescription>
          </Card>
        ) : (
          <>
            <Card aria-labelledby="funnel-title">
              <CardTitle id="funnel-title">Where the rollout stands</CardTitle>
              <div className="mt-3">
                <RolloutFunnel totals={data.totals} lastProgress={data.lastProgress} />
              </div>
            </Card>
            <Card aria-labelledby="breakdown-title">
              {/* Named from the figures shown, not the DEN just chosen: while its figures load, the last ones stay. */}
              <CardTitle id="breakdown-title">{data.breakdown.level === 'DEN' ? 'By DEN' : `AENs under ${data.breakdown.rows[0]?.den ?? den}`}</CardTitle>
              <div className="mt-2">
                <BreakdownTable stats={data} onPickDen={pickDen} />
              </div>
            </Card>
          </>
        )}
      </>
    );
  }

  return (
    <Screen wide title={MACHINE_TEXTS.dashboardTitle} subtitle="Lubricator rollout by DEN and AEN" back={<BackButton to="/admin" />}>
      <Card aria-label="Filters" aria-busy={stats.isFetching || undefined}>
        <div className="grid gap-3 sm:grid-cols-[1fr_1fr_auto] sm:items-end">
          <FilterSelect id="machine-den" label="DEN" value={den} onChange={pickDen} all={{ value: 'all', label: 'All DENs' }} options={filters.data?.dens ?? []} />
          {/* Until the chosen DEN's AENs arrive, the last DEN's are not offered: none of them may be picked for the new DEN. */}
          <FilterSelect
            id="machine-aen"
            label="AEN"
            value={aen}
            onChange={setAen}
            disabled={filters.isPlaceholderData || filters.isPending}
            all={{ value: 'all', label: 'All AENs' }}
            options={filters.isPlaceholderData ? [] : (filters.data?.aens ?? [])}
          />
          <Button variant="outline" onClick={() => report.mutate()} disabled={report.isPending}>
            {report.isPending ? MACHINE_TEXTS.preparingReport : MACHINE_TEXTS.downloadReport}
          </Button>
        </div>
      </Card>
      {body}
    </Screen>
  );
}
