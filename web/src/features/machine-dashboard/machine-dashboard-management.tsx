import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { DIVISIONS } from '../../../../common/constants.js';
import { machineValueOf, ROLLOUT_FIELDS, type RolloutField, type RolloutFigures, rolloutFiguresProblem } from '../../../../common/rules/rollout.js';
import { MACHINE_SUMMARY_DEFAULT_DIVISION, type MachineSummary } from '../../../../common/schemas/machines.js';
import { Button } from '../../components/ui/button.js';
import { Card, CardDescription, CardTitle } from '../../components/ui/card.js';
import { Input } from '../../components/ui/input.js';
import { FieldError, Label } from '../../components/ui/label.js';
import { selectClasses } from '../../components/ui/select-classes.js';
import { toast } from '../../components/ui/toast-store.js';
import { apiErrorMessage } from '../../lib/api-client.js';
import { apiErrorFields, failureText } from '../../lib/api-failure.js';
import { submittedText } from '../../lib/date-text.js';
import {
  MACHINE_SUMMARIES_KEY,
  machineProgressKey,
  machineSummaryKey,
  parseMachineProgress,
  parseMachineSummaries,
  parseMachineSummary,
  updateMachineSummary,
} from './machine-api.js';
import { FIGURE_LABELS, MACHINE_TEXTS } from './machine-texts.js';

const FIELD_LABELS: Readonly<Record<RolloutField, MessageDescriptor>> = {
  scope: msg`Scope`,
  foundationCompleted: msg`Foundation Completed`,
  machinesInstalled: msg`Machines Installed`,
  machinesCommissioned: msg`Machines Commissioned`,
};

type Entries = Record<RolloutField, string>;

const entriesOf = (summary: MachineSummary): Entries =>
  Object.fromEntries(ROLLOUT_FIELDS.map((f) => [f, String(summary[f])])) as Entries;
const figuresOf = (entries: Entries): RolloutFigures =>
  Object.fromEntries(ROLLOUT_FIELDS.map((f) => [f, machineValueOf(entries[f])])) as unknown as RolloutFigures;

/** The server's message for each figure it refused (a 400 names the field). */
function serverFieldErrors(error: unknown): Partial<Record<RolloutField, string>> {
  const fields = apiErrorFields(error);
  return Object.fromEntries(ROLLOUT_FIELDS.flatMap((f) => (fields[f] ? [[f, fields[f]]] : [])));
}

/** Every division's entered figures, to compare at a glance before changing one. */
function AllDivisions({ current }: { current: string }) {
  const { t, i18n } = useLingui();
  const summaries = useQuery({ queryKey: MACHINE_SUMMARIES_KEY, select: parseMachineSummaries, staleTime: 0 });
  if (!summaries.data) return null;
  return (
    <Card aria-labelledby="all-divisions-title">
      <CardTitle id="all-divisions-title">
        <Trans>All divisions</Trans>
      </CardTitle>
      {/* A phone gets one block per division; the table needs a wider screen. */}
      <ul className="mt-2 flex flex-col divide-y divide-slate-200 sm:hidden" aria-label={t`Progress values of all divisions`}>
        {summaries.data.map((s) => {
          const updated = s.updatedAt ? submittedText(s.updatedAt) : null;
          return (
            <li key={s.division} className={s.division === current ? 'bg-brand-50 py-2' : 'py-2'}>
              <div className="font-semibold">{s.division}</div>
              <p className="text-sm tabular-nums">{ROLLOUT_FIELDS.map((f) => `${i18n._(FIGURE_LABELS[f])} ${s[f]}`).join(' · ')}</p>
              <p className="text-xs text-slate-700">{updated === null ? t`Updated never` : t`Updated ${updated}`}</p>
            </li>
          );
        })}
      </ul>
      <div className="mt-2 hidden overflow-x-auto sm:block">
        <table className="w-full min-w-[32rem] border-collapse text-left text-sm">
          <thead>
            <tr className="border-b-2 border-slate-300 text-slate-700">
              <th scope="col" className="py-2 pr-3">
                <Trans>Division</Trans>
              </th>
              {ROLLOUT_FIELDS.map((f) => (
                <th key={f} scope="col" className="py-2 pr-3 text-right">
                  {i18n._(FIELD_LABELS[f])}
                </th>
              ))}
              <th scope="col" className="py-2">
                <Trans>Updated</Trans>
              </th>
            </tr>
          </thead>
          <tbody>
            {summaries.data.map((s) => (
              <tr key={s.division} className={s.division === current ? 'border-b border-slate-200 bg-brand-50' : 'border-b border-slate-200'}>
                <th scope="row" className="py-2 pr-3 font-semibold">{s.division}</th>
                {ROLLOUT_FIELDS.map((f) => (
                  <td key={f} className="py-2 pr-3 text-right tabular-nums">
                    {s[f]}
                  </td>
                ))}
                <td className="py-2 whitespace-nowrap">{s.updatedAt ? submittedText(s.updatedAt) : t`Never`}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Card>
  );
}

/** The four figures of one division, filled with its saved figures (re-made when they change). */
function MachineValuesForm({
  division,
  saved,
  sheet,
  onDone,
}: {
  division: (typeof DIVISIONS)[number];
  saved: MachineSummary;
  sheet: RolloutFigures | null;
  onDone: () => void;
}) {
  const { t, i18n } = useLingui();
  const queryClient = useQueryClient();
  const [entries, setEntries] = useState<Entries>(() => entriesOf(saved));
  const [errors, setErrors] = useState<Partial<Record<RolloutField, string>>>({});

  const save = useMutation({
    mutationFn: updateMachineSummary,
    onSuccess: async (summary) => {
      const savedDivision = summary.division;
      toast({ title: i18n._(MACHINE_TEXTS.updated), description: t`Progress values for ${savedDivision} have been saved.` });
      await queryClient.invalidateQueries({ predicate: (q) => typeof q.queryKey[0] === 'string' && q.queryKey[0].startsWith('/api/machine-') });
    },
    onError: (error) => {
      setErrors(serverFieldErrors(error));
      toast({ variant: 'destructive', title: i18n._(MACHINE_TEXTS.errorTitle), description: failureText(i18n._(MACHINE_TEXTS.updateFailed), error) });
    },
  });

  const lastUpdated = saved.updatedAt ? submittedText(saved.updatedAt) : null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const figures = figuresOf(entries);
    const problem = rolloutFiguresProblem(figures);
    if (problem) {
      setErrors({ [problem.field]: problem.message });
      return;
    }
    setErrors({});
    save.mutate({ division, ...figures });
  };

  return (
    <form className="flex flex-col gap-4" onSubmit={submit} noValidate aria-label={t`Progress values of ${division}`}>
      <div className="grid gap-4 sm:grid-cols-2">
        {ROLLOUT_FIELDS.map((field) => {
          const id = `machine-${field}`;
          const sheetCount = sheet ? sheet[field] : null;
          return (
            <div key={field}>
              <Label htmlFor={id}>{i18n._(FIELD_LABELS[field])}</Label>
              <Input
                id={id}
                className="mt-1"
                type="number"
                inputMode="numeric"
                min={0}
                step={1}
                value={entries[field]}
                invalid={errors[field] !== undefined}
                aria-describedby={errors[field] ? `${id}-error` : sheet ? `${id}-sheet` : undefined}
                // A non-numeric entry becomes 0 (an empty field stays empty while typing).
                onChange={(event) => {
                  const raw = event.target.value;
                  setEntries({ ...entries, [field]: raw === '' ? '' : String(machineValueOf(raw)) });
                }}
                onBlur={() => setEntries({ ...entries, [field]: String(machineValueOf(entries[field])) })}
              />
              {sheet ? (
                <p id={`${id}-sheet`} className="mt-1 text-sm text-slate-700">
                  {t`Rollout sheet: ${sheetCount}`}
                </p>
              ) : null}
              <FieldError id={`${id}-error`} message={errors[field]} />
            </div>
          );
        })}
      </div>
      {lastUpdated ? <p className="text-sm text-slate-700">{t`Last updated ${lastUpdated}`}</p> : null}
      <div className="flex flex-wrap gap-3">
        <Button type="submit" disabled={save.isPending}>
          {i18n._(save.isPending ? MACHINE_TEXTS.updating : MACHINE_TEXTS.updateValues)}
        </Button>
        <Button variant="outline" onClick={onDone}>
          {i18n._(MACHINE_TEXTS.cancel)}
        </Button>
      </div>
    </form>
  );
}

/**
 * machine-dashboard-management (docs/functional-requirements.md, 'Machine dashboard management (owners)'; on the server too): a
 * division's four rollout figures, checked here as the server checks them, so an impossible
 * set is named under its field before it is sent.
 */
export function MachineDashboardManagement({ onDone }: { onDone: () => void }) {
  const { t } = useLingui();
  const [division, setDivision] = useState<(typeof DIVISIONS)[number]>(MACHINE_SUMMARY_DEFAULT_DIVISION);
  const summary = useQuery({ queryKey: machineSummaryKey(division), select: parseMachineSummary, staleTime: 0 });
  const counted = useQuery({ queryKey: machineProgressKey(division), select: parseMachineProgress, staleTime: 0 });

  return (
    <>
      <Card aria-labelledby="machine-values-title">
        <CardTitle id="machine-values-title">
          <Trans>Update progress values</Trans>
        </CardTitle>
        <CardDescription>
          <Trans>Whole numbers, 0 or more; each stage can have no more curves than the one before it.</Trans>
        </CardDescription>
        <div className="mt-3 max-w-xs">
          <Label htmlFor="machine-division">
            <Trans>Division</Trans>
          </Label>
          <select
            id="machine-division"
            className={`${selectClasses(false)} mt-1`}
            value={division}
            onChange={(event) => setDivision(event.target.value as (typeof DIVISIONS)[number])}
          >
            {DIVISIONS.map((d) => (
              <option key={d} value={d}>
                {d}
              </option>
            ))}
          </select>
        </div>
        <div className="mt-4">
          {summary.isError ? (
            <p role="alert" className="text-base font-medium text-red-700">
              {apiErrorMessage(summary.error, t`Failed to load the progress values`)}
            </p>
          ) : summary.data && summary.data.division === division ? (
            <MachineValuesForm
              // Re-made only when the saved figures change (a save), never by a mere refetch: typed figures stay.
              key={`${division}|${summary.data.updatedAt ?? 'never'}`}
              division={division}
              saved={summary.data}
              sheet={counted.data?.fromCurveRecords ?? null}
              onDone={onDone}
            />
          ) : (
            <p className="text-base text-slate-700">
              <Trans>Loading the progress values...</Trans>
            </p>
          )}
        </div>
      </Card>
      <AllDivisions current={division} />
    </>
  );
}
