import { BackButton } from '../../components/ui/back-button.js';
import { Screen } from '../../components/ui/screen.js';
import { ComingSoon, StepIndicator } from './flow-parts.js';

export function ReviewPage() {
  return (
    <Screen
      title="Review"
      subtitle={<StepIndicator step={3} total={4} name="Confirmation" />}
      back={<BackButton to="/service-details" />}
    >
      <ComingSoon what="Reviewing the inspection before the photo" />
    </Screen>
  );
}
