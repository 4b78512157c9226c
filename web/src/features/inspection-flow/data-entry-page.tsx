import { Suspense, useEffect } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { BackButton } from '../../components/ui/back-button.js';
import { Screen } from '../../components/ui/screen.js';
import { OutboxBadge } from '../outbox/index.js';
import { preloadCameraScreen } from './camera-page.js';
import { lazyEntryForm } from './entry/load-entry-form.js';
import { StepIndicator } from './flow-parts.js';
import { parseInspectionType } from './flow-storage.js';
import { lazyServiceDetailsForm } from './service-details/load-service-details-form.js';

const EntryForm = lazyEntryForm.Component;

export function DataEntryPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const type = parseInspectionType(params.get('type'));
  const isService = type === 'Service';

  useEffect(() => {
    // Fetch the next step's code while this one is filled in, in case the signal drops later.
    const next = isService ? lazyServiceDetailsForm.preload() : preloadCameraScreen();
    next.catch(() => {
      // Nothing to do now: that step tries again when it opens, and says so if it fails.
    });
  }, [isService]);

  return (
    <Screen
      title={isService ? 'Service Inspection' : 'CoF Measurement'}
      subtitle={<StepIndicator step={1} total={isService ? 4 : 3} name="Curve Details" />}
      back={<BackButton to={`/purpose?type=${type}`} />}
      actions={<OutboxBadge />}
    >
      {/* Title, step and Back show at once, so Back works even while the form still loads. */}
      <Suspense
        fallback={
          <p role="status" className="text-base font-semibold text-slate-800">
            Loading form...
          </p>
        }
      >
        {/* A new form per type: Service and CoF entries never share half-filled values. */}
        <EntryForm key={type} type={type} onSaved={() => navigate(isService ? '/service-details' : '/camera')} />
      </Suspense>
    </Screen>
  );
}
