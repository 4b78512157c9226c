import { useLingui } from '@lingui/react/macro';
import { Link } from 'react-router';
import { useAuth } from '../auth/index.js';
import { othersText, refusedText, waitingText } from './outbox-texts.js';
import { useOutboxCount } from './use-outbox-count.js';

function UploadIcon() {
  return (
    <svg viewBox="0 0 24 24" className="size-5" fill="none" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
      <path d="M12 19V5" />
      <path d="m5 12 7-7 7 7" />
    </svg>
  );
}

/** The header's compact count of records not sent yet, leading to the outbox; nothing when there are none. */
export function OutboxBadge() {
  const { t } = useLingui();
  const { user } = useAuth();
  const { mine, failed } = useOutboxCount(user?.employeeId ?? null);
  if (mine === 0) return null;
  const waiting = waitingText(mine);
  const label = failed > 0 ? t`${waiting}, ${failed} failed` : waiting;
  return (
    <Link
      to="/outbox"
      aria-label={label}
      title={label}
      className={
        failed > 0
          ? 'inline-flex min-h-11 items-center gap-1 rounded-full border-2 border-red-800 bg-red-50 px-3 text-base font-bold text-red-900'
          : 'inline-flex min-h-11 items-center gap-1 rounded-full border-2 border-amber-700 bg-amber-50 px-3 text-base font-bold text-amber-950'
      }
    >
      <UploadIcon />
      {mine}
    </Link>
  );
}

/** The purpose screen's line about the outbox: the technician's own records, and other users' waiting for them. */
export function OutboxNotice() {
  const { t } = useLingui();
  const { user } = useAuth();
  const { mine, failed, others } = useOutboxCount(user?.employeeId ?? null);
  if (mine === 0 && others === 0) return null;
  return (
    <section aria-label={t`Outbox`} className="flex flex-col gap-2">
      {mine > 0 ? (
        <Link
          to="/outbox"
          className="flex min-h-14 items-center gap-3 rounded-xl border-2 border-amber-700 bg-amber-50 p-3 text-base font-semibold text-amber-950 hover:bg-amber-100"
        >
          <UploadIcon />
          <span className="flex-1">
            {waitingText(mine)}
            {failed > 0 ? <span className="block text-sm font-medium text-red-800">{refusedText(failed)}</span> : null}
          </span>
          <span aria-hidden="true">›</span>
        </Link>
      ) : null}
      {others > 0 ? (
        <p className="text-sm text-slate-700">{othersText(others)}</p>
      ) : null}
    </section>
  );
}
