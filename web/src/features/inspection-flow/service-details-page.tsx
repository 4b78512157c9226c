import { Trans, useLingui } from '@lingui/react/macro';
import { Suspense, useState } from 'react';
import { Navigate, useNavigate } from 'react-router';
import type { SessionEntry } from '../../../../common/schemas/inspection.js';
import { BackButton } from '../../components/ui/back-button.js';
import { Screen } from '../../components/ui/screen.js';
import { OutboxBadge } from '../outbox/index.js';
import { StepIndicator } from './flow-parts.js';
import { readEntry, storedEntryType, updateEntry } from './flow-storage.js';
import { CurveSummary } from './service-details/curve-summary.js';
import { lazyServiceDetailsForm } from './service-details/load-service-details-form.js';

const ServiceDetailsForm = lazyServiceDetailsForm.Component;

export function ServiceDetailsPage() {
  const { t } = useLingui();
  const navigate = useNavigate();
  // The same test as the router's guard on /review and /camera: any stored entry lets the user in.
  const [type] = useState(storedEntryType);
  const [entry] = useState(readEntry);

  // This step builds on step 1's stored entry; without one the flow starts over.
  if (type === null) return <Navigate to="/purpose" replace />;
  // Service details belong to Service only; a CoF entry goes back to its own form.
  if (type !== 'Service') return <Navigate to="/data-entry?type=CoF" replace />;

  const save = (patch: Partial<SessionEntry>) => {
    // An entry too incomplete to extend cannot be submitted either: start over.
    const saved = updateEntry(patch);
    navigate(saved === null ? '/purpose' : '/review');
  };

  return (
    <Screen
      title={t`Service Details`}
      subtitle={<StepIndicator step={2} total={4} name={t`Service Details`} />}
      back={<BackButton to="/data-entry?type=Service" />}
      actions={<OutboxBadge />}
    >
      {entry !== null ? <CurveSummary entry={entry} /> : null}
      <Suspense
        fallback={
          <p role="status" className="text-base font-semibold text-slate-800">
            <Trans>Loading form...</Trans>
          </p>
        }
      >
        <ServiceDetailsForm entry={entry} onSave={save} />
      </Suspense>
    </Screen>
  );
}
