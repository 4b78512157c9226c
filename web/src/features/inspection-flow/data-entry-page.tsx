import { Trans, useLingui } from '@lingui/react/macro';
import { Suspense, useEffect } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { BackButton } from '../../components/ui/back-button.js';
import { Screen } from '../../components/ui/screen.js';
import { OutboxBadge } from '../outbox/index.js';
import { preloadCameraScreen } from './camera-page.js';
import type { CurvePreset } from './entry/entry-form.js';
import { lazyEntryForm } from './entry/load-entry-form.js';
import { StepIndicator } from './flow-parts.js';
import { parseInspectionType } from './flow-storage.js';
import { lazyServiceDetailsForm } from './service-details/load-service-details-form.js';
import { inspectionTypeLabel } from './value-labels.js';

const EntryForm = lazyEntryForm.Component;

/** ?division=&section=&curve=&line= from the due list of /purpose: the curve to fill in. */
function presetFrom(params: URLSearchParams): CurvePreset | undefined {
  const [divisionRailway, section, curveNumber, line] = ['division', 'section', 'curve', 'line'].map((name) => params.get(name)?.trim() ?? '');
  if (!divisionRailway || !section || !curveNumber || !line) return undefined;
  return { divisionRailway, section, curveNumber, line };
}

export function DataEntryPage() {
  const { t, i18n } = useLingui();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const type = parseInspectionType(params.get('type'));
  const preset = presetFrom(params);
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
      title={inspectionTypeLabel(type, i18n)}
      subtitle={<StepIndicator step={1} total={isService ? 4 : 3} name={t`Curve Details`} />}
      back={<BackButton to={`/purpose?type=${type}`} />}
      actions={<OutboxBadge />}
    >
      {/* Title, step and Back show at once, so Back works even while the form still loads. */}
      <Suspense
        fallback={
          <p role="status" className="text-base font-semibold text-slate-800">
            <Trans>Loading form...</Trans>
          </p>
        }
      >
        {/* A new form per type: Service and CoF entries never share half-filled values. */}
        <EntryForm key={type} type={type} preset={preset} onSaved={() => navigate(isService ? '/service-details' : '/camera')} />
      </Suspense>
    </Screen>
  );
}
