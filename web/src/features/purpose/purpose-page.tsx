import { lazy, Suspense, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Button, buttonClasses } from '../../components/ui/button.js';
import { Screen } from '../../components/ui/screen.js';
import { CHANGE_PASSWORD_PATH, useAuth, useSignedInUser } from '../auth/index.js';
import { OutboxNotice } from '../outbox/index.js';

/** The due list in its own chunk: the purposes show at once, the list follows. */
const DueList = lazy(() => import('../schedule/index.js').then((m) => ({ default: m.DueList })));

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

const PURPOSES = [
  { type: 'Service', title: 'Service Inspection', description: 'Every 15 days routine check', Icon: WrenchIcon },
  { type: 'CoF', title: 'CoF Measurement', description: 'Every 30 days friction test', Icon: GaugeIcon },
] as const;

export function PurposePage() {
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
      title="Select Purpose"
      subtitle={
        <>
          <span className="font-semibold">{user.name}</span> · {user.role}
        </>
      }
      actions={
        <Button variant="outline" size="sm" onClick={() => void onLogout()} disabled={leaving}>
          Logout
        </Button>
      }
    >
      <OutboxNotice />
      <p className="text-base text-slate-800">What are you doing at this curve today?</p>
      <nav aria-label="Inspection purpose" className="flex flex-col gap-4">
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
              <span className="text-lg font-bold text-slate-900">{purpose.title}</span>
              <span className="text-base text-slate-700">{purpose.description}</span>
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
          Admin Panel
        </Button>
      ) : null}
      <Link to={CHANGE_PASSWORD_PATH} className={buttonClasses('ghost', 'default', 'self-center underline')}>
        Change password
      </Link>
    </Screen>
  );
}
