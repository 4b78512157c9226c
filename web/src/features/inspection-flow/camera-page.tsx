import { BackButton } from '../../components/ui/back-button.js';
import { Screen } from '../../components/ui/screen.js';
import { ComingSoon } from './flow-parts.js';
import { storedEntryType } from './flow-storage.js';

export function CameraPage() {
  // Service came here through service details; CoF straight from its entry form.
  const backTo = storedEntryType() === 'CoF' ? '/data-entry?type=CoF' : '/service-details';
  return (
    <Screen title="Capture Photo" back={<BackButton to={backTo} />}>
      <ComingSoon what="Taking the photo and submitting the record" />
    </Screen>
  );
}
