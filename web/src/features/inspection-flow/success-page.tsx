import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '../../components/ui/button.js';
import { Card, CardTitle } from '../../components/ui/card.js';
import { Screen } from '../../components/ui/screen.js';
import { OutboxBadge } from '../outbox/index.js';
import { clearSubmissionResult, readSubmissionResult } from './flow-storage.js';

function CheckIcon() {
  return (
    <svg viewBox="0 0 24 24" className="size-10" fill="none" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
      <circle cx="12" cy="12" r="10" />
      <path d="m8 12 3 3 5-6" />
    </svg>
  );
}

function ClockIcon() {
  return (
    <svg viewBox="0 0 24 24" className="size-10" fill="none" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
      <circle cx="12" cy="12" r="10" />
      <path d="M12 7v5l3 2" />
    </svg>
  );
}

/**
 * The submission result (docs/functional-requirements.md, 'Submission result and the outbox'); the route guard ensures one is stored.
 * 'Completed' with the server's record ID, or 'Queued' with the local ID when the record is
 * safe in the outbox but has not reached the server yet.
 */
export function SuccessPage() {
  const { t } = useLingui();
  const navigate = useNavigate();
  // Read once: clearing it on the way out must not redraw this screen empty first.
  const [result] = useState(readSubmissionResult);
  const finish = () => {
    clearSubmissionResult();
    navigate('/purpose', { replace: true });
  };

  const queued = result?.status === 'queued';
  const rows: Array<[string, string]> =
    result?.status === 'queued'
      ? [
          [t`Local ID`, result.localId],
          [t`Upload Status`, t`Queued`],
        ]
      : [
          [t`Record ID`, result?.recordId || '—'],
          [t`File Name`, result?.fileName || '—'],
          [t`Upload Status`, t`Completed`],
        ];

  return (
    <Screen title={t`Submission Result`} actions={<OutboxBadge />}>
      <Card aria-labelledby="submission-result-title" className="flex flex-col gap-3">
        {queued ? (
          <>
            <div className="flex items-center gap-3 text-amber-800">
              <ClockIcon />
              <CardTitle id="submission-result-title" className="text-amber-950">
                <Trans>Inspection Saved on This Phone</Trans>
              </CardTitle>
            </div>
            <p className="text-base text-slate-800">
              <Trans>It could not be sent yet. It is kept in the outbox and sent on its own when the network is back.</Trans>
            </p>
          </>
        ) : (
          <div className="flex items-center gap-3 text-green-800">
            <CheckIcon />
            <CardTitle id="submission-result-title" className="text-green-900">
              <Trans>Inspection Submitted</Trans>
            </CardTitle>
          </div>
        )}
        <dl className="flex flex-col gap-3 text-base">
          {rows.map(([term, value]) => (
            <div key={term} className="flex flex-col gap-0.5">
              <dt className="text-sm font-semibold text-slate-700">{term}</dt>
              <dd className="font-mono text-lg break-all text-slate-900">{value}</dd>
            </div>
          ))}
        </dl>
      </Card>
      <div className="flex flex-col gap-3">
        <Button size="lg" onClick={finish}>
          <Trans>New Inspection</Trans>
        </Button>
        <Button variant="outline" size="lg" onClick={finish}>
          <Trans>Return to Home</Trans>
        </Button>
      </div>
    </Screen>
  );
}
