import { useLingui } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import type { InspectionType } from '../../../../../common/constants.js';
import { BackButton } from '../../../components/ui/back-button.js';
import { Screen } from '../../../components/ui/screen.js';
import { OutboxBadge } from '../../outbox/index.js';
import { StepIndicator } from '../flow-parts.js';

/**
 * The camera screen's frame: the last step of either flow. Service came here through the
 * review (step 4 of 4); CoF straight from its entry form (step 3 of 3).
 */
export function CameraFrame({ type, children }: { type: InspectionType; children: ReactNode }) {
  const { t } = useLingui();
  const isCoF = type === 'CoF';
  return (
    <Screen
      title={t`Capture Photo`}
      subtitle={<StepIndicator step={isCoF ? 3 : 4} total={isCoF ? 3 : 4} name={t`Photo`} />}
      back={<BackButton to={isCoF ? '/data-entry?type=CoF' : '/service-details'} />}
      actions={<OutboxBadge />}
    >
      {children}
    </Screen>
  );
}
