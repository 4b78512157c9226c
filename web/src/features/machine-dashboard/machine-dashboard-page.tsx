import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
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
import { countText } from '../../lib/number-text.js';
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
  ['scope', msg`Scope (curves)`],
  ['foundationCompleted', msg`Foundation completed`],
  ['machinesInstalled', msg`Machines installed`],
  ['machinesCommissioned', msg`Machines commissioned`],
] as const;

function TotalsGrid({ stats }: { stats: MachineStatsResponse }) {
  const { t, i18n } = useLingui();
  const { totals } = stats;
  return (
    <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4" aria-label={t`Totals`}>
      {TOTALS.map(([key, label]) => {
        const share = percentOf(totals[key], totals.scope);
        return (
          <div key={key} className="rounded-xl border-2 border-slate-300 bg-white p-3">
            <dt className="text-sm text-slate-700">{i18n._(label)}</dt>
            <dd className="text-3xl font-bold tabular-nums text-slate-900">{countText(totals[key])}</dd>
            {key === 'scope' || totals.scope === 0 ? null : <dd className="text-sm text-slate-700">{t`${share} of scope`}</dd>}
          </div>
        );
      })}
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
  const { t } = useLingui();
  const { level, rows } = stats.breakdown;
  const nameOf = (row: MachineBreakdownRow) =>
    level === 'DEN' && row.name !== null ? (
      <button type="button" className="min-h-11 text-left text-brand-700 underline" onClick={() => onPickDen(row.name ?? '')}>
        {row.name}
      </button>
    ) : (
      (row.name ?? t`Not assigned`)
    );
  const title = level === 'DEN' ? t`Rollout by DEN` : t`Rollout by AEN`;
  return (
    <>
      {/* A phone has no room for seven columns: one block per DEN or AEN instead. */}
      <ul className="flex flex-col divide-y divide-slate-200 sm:hidden" aria-label={title}>
        {rows.map((row) => {
          const commissioned = percentOf(row.totals.machinesCommissioned, row.totals.scope);
          const lastProgress = lastProgressText(row);
          return (
            // No name (curves no DEN or AEN is assigned to) is one row at most.
            <li key={row.name ?? ''} className="py-2">
              <div className="font-semibold text-slate-900">{nameOf(row)}</div>
              <dl className="mt-1 grid grid-cols-4 gap-1 text-sm tabular-nums">
                {(
                  [
                    ['scope', t`Scope`, row.totals.scope],
                    ['foundation', t`Found.`, row.totals.foundationCompleted],
                    ['installed', t`Installed`, row.totals.machinesInstalled],
                    ['commissioned', t`Comm.`, row.totals.machinesCommissioned],
                  ] as const
                ).map(([key, label, value]) => (
                  <div key={key}>
                    <dt className="text-xs text-slate-700">{label}</dt>
                    <dd className="font-semibold text-slate-900">{countText(value)}</dd>
                  </div>
                ))}
              </dl>
              <p className="mt-1 text-xs text-slate-700">
                <Trans>
                  {commissioned} commissioned · last progress {lastProgress}
                </Trans>
              </p>
            </li>
          );
        })}
      </ul>
      <div className="hidden overflow-x-auto sm:block">
        <table className="w-full min-w-[40rem] border-collapse text-left text-sm">
          <caption className="sr-only">{title}</caption>
          <thead>
            <tr className="border-b-2 border-slate-300 text-slate-700">
              <th scope="col" className="py-2 pr-3">{level}</th>
              <th scope="col" className="py-2 pr-3 text-right">
                <Trans>Scope</Trans>
              </th>
              <th scope="col" className="py-2 pr-3 text-right">
                <Trans>Foundation</Trans>
              </th>
              <th scope="col" className="py-2 pr-3 text-right">
                <Trans>Installed</Trans>
              </th>
              <th scope="col" className="py-2 pr-3 text-right">
                <Trans>Commissioned</Trans>
              </th>
              <th scope="col" className="py-2 pr-3 text-right">
                <Trans>Done</Trans>
              </th>
              <th scope="col" className="py-2">
                <Trans>Last progress</Trans>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.name ?? ''} className="border-b border-slate-200">
                <th scope="row" className="py-2 pr-3 font-semibold text-slate-900">
                  {nameOf(row)}
                </th>
                <td className="py-2 pr-3 text-right tabular-nums">{countText(row.totals.scope)}</td>
                <td className="py-2 pr-3 text-right tabular-nums">{countText(row.totals.foundationCompleted)}</td>
                <td className="py-2 pr-3 text-right tabular-nums">{countText(row.totals.machinesInstalled)}</td>
                <td className="py-2 pr-3 text-right tabular-nums">{countText(row.totals.machinesCommissioned)}</td>
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
  const { t, i18n } = useLingui();
  const [den, setDen] = useState('all');
  const [aen, setAen] = useState('all');
  // Never cached (the original contract): asked again whenever the page opens or a filter changes.
  const filters = useQuery({ queryKey: machineFiltersKey(den), select: parseMachineFilters, staleTime: 0, placeholderData: keepPreviousData });
  const stats = useQuery({ queryKey: machineStatsKey(den, aen), select: parseMachineStats, staleTime: 0, placeholderData: keepPreviousData });

  const report = useMutation({
    mutationFn: () => requestMachineReport(den, aen),
    onSuccess: ({ reportId, recordCount }) => {
      startFileDownload(machineReportFileUrl(reportId));
      toast({ title: t`Report Generated`, description: t`Machine report with ${recordCount} curves` });
    },
    onError: (error) => {
      toast({
        variant: 'destructive',
        title: i18n._(MACHINE_TEXTS.reportErrorTitle),
        description: apiErrorMessage(error, i18n._(MACHINE_TEXTS.reportFailed)),
      });
    },
  });

  const pickDen = (value: string) => {
    setDen(value);
    setAen('all');
  };

  let body;
  if (stats.isPending) {
    body = (
      <p className="text-base text-slate-700">
        <Trans>Loading the rollout figures...</Trans>
      </p>
    );
  } else if (stats.isError) {
    body = (
      <Card>
        <p role="alert" className="text-base font-medium text-red-700">
          {apiErrorMessage(stats.error, t`Failed to load the machine figures`)}
        </p>
        <Button variant="outline" size="sm" className="mt-2" onClick={() => void stats.refetch()}>
          <Trans>Try Again</Trans>
        </Button>
      </Card>
    );
  } else {
    const data = stats.data;
    const shownDen = data.breakdown.rows[0]?.den ?? den;
    body = (
      <>
        <TotalsGrid stats={data} />
        {data.totals.scope === 0 ? (
          <Card>
            <CardDescription className="text-base">
              <Trans>No curves in the rollout match these filters.</Trans>
            </CardDescription>
          </Card>
        ) : (
          <>
            <Card aria-labelledby="funnel-title">
              <CardTitle id="funnel-title">
                <Trans>Where the rollout stands</Trans>
              </CardTitle>
              <div className="mt-3">
                <RolloutFunnel totals={data.totals} lastProgress={data.lastProgress} />
              </div>
            </Card>
            <Card aria-labelledby="breakdown-title">
              {/* Named from the figures shown, not the DEN just chosen: while its figures load, the last ones stay. */}
              <CardTitle id="breakdown-title">{data.breakdown.level === 'DEN' ? t`By DEN` : t`AENs under ${shownDen}`}</CardTitle>
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
    <Screen wide title={i18n._(MACHINE_TEXTS.dashboardTitle)} subtitle={t`Lubricator rollout by DEN and AEN`} back={<BackButton to="/admin" />}>
      <Card aria-label={t`Filters`} aria-busy={stats.isFetching || undefined}>
        <div className="grid gap-3 sm:grid-cols-[1fr_1fr_auto] sm:items-end">
          <FilterSelect id="machine-den" label="DEN" value={den} onChange={pickDen} all={{ value: 'all', label: t`All DENs` }} options={filters.data?.dens ?? []} />
          {/* Until the chosen DEN's AENs arrive, the last DEN's are not offered: none of them may be picked for the new DEN. */}
          <FilterSelect
            id="machine-aen"
            label="AEN"
            value={aen}
            onChange={setAen}
            disabled={filters.isPlaceholderData || filters.isPending}
            all={{ value: 'all', label: t`All AENs` }}
            options={filters.isPlaceholderData ? [] : (filters.data?.aens ?? [])}
          />
          <Button variant="outline" onClick={() => report.mutate()} disabled={report.isPending}>
            {i18n._(report.isPending ? MACHINE_TEXTS.preparingReport : MACHINE_TEXTS.downloadReport)}
          </Button>
        </div>
      </Card>
      {body}
    </Screen>
  );
}
