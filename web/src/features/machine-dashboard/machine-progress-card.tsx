import { Trans, useLingui } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { ROLLOUT_FIELDS, type RolloutField } from '../../../../common/rules/rollout.js';
import { buttonClasses } from '../../components/ui/button.js';
import { Card, CardDescription, CardTitle } from '../../components/ui/card.js';
import { apiErrorMessage } from '../../lib/api-client.js';
import { submittedText } from '../../lib/date-text.js';
import { countText } from '../../lib/number-text.js';
import { machineProgressKey, parseMachineProgress } from './machine-api.js';
import { FIGURE_LABELS, MACHINE_TEXTS, NO_FIGURE } from './machine-texts.js';

/**
 * The reports landing's Machine Installation Progress (docs/functional-requirements.md, 'Reports and Analytics'): the figures entered for
 * the division (all = their sum), dashes where none were. Where the per-curve rollout records
 * count otherwise, the card shows that count too and says which is which.
 */
export function MachineProgressCard({ division }: { division: string }) {
  const { t, i18n } = useLingui();
  const progress = useQuery({ queryKey: machineProgressKey(division), select: parseMachineProgress, staleTime: 0 });
  const data = progress.data;
  const summary = data?.summary ?? null;
  const counted = data?.fromCurveRecords ?? null;
  const differs = (field: RolloutField) => counted !== null && (summary === null || summary[field] !== counted[field]);
  const anyDiffers = ROLLOUT_FIELDS.some(differs);
  const updatedAt = summary?.updatedAt ? submittedText(summary.updatedAt) : null;

  return (
    <Card aria-labelledby="progress-title" aria-busy={progress.isFetching || undefined}>
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div>
          <CardTitle id="progress-title">{i18n._(MACHINE_TEXTS.progressTitle)}</CardTitle>
          {updatedAt ? (
            <CardDescription>
              <Trans>Figures updated {updatedAt}</Trans>
            </CardDescription>
          ) : null}
        </div>
        <Link to="/machine-dashboard" className={buttonClasses('outline', 'sm')}>
          <Trans>Open Machine Dashboard</Trans>
        </Link>
      </div>
      <dl className="mt-3 grid grid-cols-2 gap-3 sm:grid-cols-4">
        {ROLLOUT_FIELDS.map((field) => {
          const sheetCount = differs(field) && counted ? countText(counted[field]) : null;
          return (
            <div key={field} className="rounded-lg border border-slate-300 p-3">
              <dt className="text-sm text-slate-700">{i18n._(FIGURE_LABELS[field])}</dt>
              <dd className="text-2xl font-bold tabular-nums text-slate-900">{summary ? countText(summary[field]) : NO_FIGURE}</dd>
              {sheetCount === null ? null : <dd className="text-sm text-amber-900">{t`Rollout sheet: ${sheetCount}`}</dd>}
            </div>
          );
        })}
      </dl>
      {progress.isError ? (
        <p role="alert" className="mt-2 text-base font-medium text-red-700">
          {apiErrorMessage(progress.error, t`Failed to load the installation progress`)}
        </p>
      ) : null}
      {anyDiffers ? (
        <CardDescription className="mt-2">
          <Trans>
            Large figures are those entered for the division; &lsquo;Rollout sheet&rsquo; is counted from the per-curve rollout records, which
            differ here.
          </Trans>
        </CardDescription>
      ) : null}
    </Card>
  );
}
