import { Trans } from '@lingui/react/macro';
import { Card, CardTitle } from '../../../components/ui/card.js';

/** What makes an inspection photo usable as evidence; short enough to read in the sun. */
export function PhotoGuidelines() {
  return (
    <Card aria-labelledby="photo-guidelines-title">
      <CardTitle id="photo-guidelines-title"><Trans>Photo guidelines</Trans></CardTitle>
      <ul className="mt-2 list-disc space-y-1 pl-5 text-base text-slate-800">
        <li><Trans>Keep the whole machine and the rail in the frame</Trans></li>
        <li><Trans>Hold the phone steady while capturing</Trans></li>
        <li><Trans>Avoid glare: keep the sun behind you</Trans></li>
      </ul>
    </Card>
  );
}
