import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { lazy, Suspense, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Button, buttonClasses } from '../../components/ui/button.js';
import { Screen } from '../../components/ui/screen.js';
import { roleLabel } from '../../lib/role-label.js';
import { CHANGE_PASSWORD_PATH, LanguageSwitch, useAuth, useSignedInUser } from '../auth/index.js';
import { OutboxNotice } from '../outbox/index.js';
import { withScreenTexts } from '../../lib/i18n.js';

/** The due list in its own chunk: the purposes show at once, the list follows. */
const DueList = lazy(() => withScreenTexts(() => import('../schedule/index.js'))().then((m) => ({ default: m.DueList })));

// Inline SVG rather than emoji: not every field phone ships an emoji font.
function WrenchIcon() {
  return (
    <svg viewBox="0 0 24 24" className="size-8" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
      <path d="M14.7 6.3a1 1 0 0 0 0 1.4l1.6 1.6a1 1 0 0 0 1.4 0l3.8-3.8a6 6 0 0 1-7.9 7.9l-6.9 6.9a2.1 2.1 0 0 1-3-3l6.9-6.9a6 6 0 0 1 7.9-7.9z" />
    </svg>
  );
}

function GaugeIcon() {
  return (
    <svg viewBox="0 0 24 24" className="size-8" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
      <path d="M12 14l4-4" />
      <path d="M3.3 19a10 10 0 1 1 17.4 0" />
    </svg>
  );
}

const PURPOSES: readonly { type: 'Service' | 'CoF'; title: MessageDescriptor; description: MessageDescriptor; Icon: typeof WrenchIcon }[] = [
  { type: 'Service', title: msg`Service Inspection`, description: msg`Every 15 days routine check`, Icon: WrenchIcon },
  { type: 'CoF', title: msg`CoF Measurement`, description: msg`Every 30 days friction test`, Icon: GaugeIcon },
];

export function PurposePage() {
  const { t, i18n } = useLingui();
  const user = useSignedInUser();
  const { logout } = useAuth();
  const navigate = useNavigate();
  const [leaving, setLeaving] = useState(false);

  const onLogout = async () => {
    setLeaving(true);
    // Records still waiting make the auth provider ask first; staying signed in gives the button back.
    const signedOut = await logout(() => navigate('/', { replace: true }));
    if (!signedOut) setLeaving(false);
  };

  return (
    <Screen
      title={t`Select Purpose`}
      subtitle={
        <>
          <span className="font-semibold">{user.name}</span> · {roleLabel(user.role)}
        </>
      }
      // At the end of the name's row, where a technician finds it at once.
      tools={<LanguageSwitch />}
      actions={
        <Button variant="outline" size="sm" onClick={() => void onLogout()} disabled={leaving}>
          <Trans>Logout</Trans>
        </Button>
      }
    >
      <OutboxNotice />
      <p className="text-base text-slate-800">
        <Trans>What are you doing at this curve today?</Trans>
      </p>
      <nav aria-label={t`Inspection purpose`} className="flex flex-col gap-4">
        {PURPOSES.map((purpose) => (
          <Link
            key={purpose.type}
            to={`/data-entry?type=${purpose.type}`}
            className="flex min-h-24 items-center gap-4 rounded-xl border-2 border-slate-300 bg-white p-4 shadow-sm hover:border-brand-700 hover:bg-brand-50"
          >
            <span className="flex size-14 shrink-0 items-center justify-center rounded-full bg-brand-100 text-brand-800">
              <purpose.Icon />
            </span>
            <span className="flex flex-col">
              <span className="text-lg font-bold text-slate-900">{i18n._(purpose.title)}</span>
              <span className="text-base text-slate-700">{i18n._(purpose.description)}</span>
            </span>
          </Link>
        ))}
      </nav>
      {/* Its own chunk: the purposes show at once, the due list follows. */}
      <Suspense fallback={null}>
        <DueList />
      </Suspense>
      {user.role === 'Admin' ? (
        <Button variant="secondary" size="lg" onClick={() => navigate('/admin')}>
          <Trans>Admin Panel</Trans>
        </Button>
      ) : null}
      <Link to={CHANGE_PASSWORD_PATH} className={buttonClasses('ghost', 'default', 'self-center underline')}>
        <Trans>Change password</Trans>
      </Link>
    </Screen>
  );
}
