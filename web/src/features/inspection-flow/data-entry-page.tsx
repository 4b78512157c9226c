import { useSearchParams } from 'react-router';
import { BackButton } from '../../components/ui/back-button.js';
import { Screen } from '../../components/ui/screen.js';
import { ComingSoon, StepIndicator } from './flow-parts.js';
import { parseInspectionType } from './flow-storage.js';

export function DataEntryPage() {
  const [params] = useSearchParams();
  const type = parseInspectionType(params.get('type'));
  const isService = type === 'Service';

  return (
    <Screen
      title={isService ? 'Service Inspection' : 'CoF Measurement'}
      subtitle={<StepIndicator step={1} total={isService ? 4 : 3} name="Curve Details" />}
      back={<BackButton to={`/purpose?type=${type}`} />}
    >
      <ComingSoon what="The curve details form" />
    </Screen>
  );
}
