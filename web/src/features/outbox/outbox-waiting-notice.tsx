import { plural } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { useAuth } from '../auth/index.js';
import { waitingText } from './outbox-texts.js';
import { useOutboxCount } from './use-outbox-count.js';

/**
 * The change-password screen's word about the outbox: the records wait on the phone and go
 * once the new password is chosen. Plain text, not the purpose screen's link: the outbox
 * screen is out of reach until then.
 */
export function OutboxWaitingNotice() {
  const { t } = useLingui();
  const { user } = useAuth();
  const { mine } = useOutboxCount(user?.employeeId ?? null);
  if (mine === 0) return null;
  const waiting = waitingText(mine);
  return (
    <p role="status" className="rounded-lg border-2 border-amber-700 bg-amber-50 p-3 text-base text-amber-950">
      <span className="font-semibold">{t`${waiting}.`}</span>{' '}
      {plural(mine, {
        one: 'It stays on this phone and is sent once you have chosen your new password.',
        other: 'They stay on this phone and are sent once you have chosen your new password.',
      })}
    </p>
  );
}
