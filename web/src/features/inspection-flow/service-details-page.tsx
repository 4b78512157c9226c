import { BackButton } from '../../components/ui/back-button.js';
import { Screen } from '../../components/ui/screen.js';
import { ComingSoon, StepIndicator } from './flow-parts.js';

export function ServiceDetailsPage() {
  return (
    <Screen
      title="Service Details"
      subtitle={<StepIndicator step={2} total={4} name="Service Details" />}
      back={<BackButton to="/data-entry?type=Service" />}
    >
      <ComingSoon what="Logging the service update and grease depth" />
    </Screen>
  );
}
