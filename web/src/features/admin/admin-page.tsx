import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Button } from '../../components/ui/button.js';
import { Screen } from '../../components/ui/screen.js';
import { toast } from '../../components/ui/toast-store.js';
import { CHANGE_PASSWORD_PATH, useAuth, useSignedInUser } from '../auth/index.js';
import { type AdminView, backTargetOf, isAdminView, mayOpenView, startViewFor, VIEW_TITLES } from './admin-views.js';
import { AdminViewBody } from './view-bodies.js';

export const ACCESS_RESTRICTED_TITLE = 'Access Restricted';
export const ACCESS_RESTRICTED_TEXT = "You don't have permission to access this section.";

/**
 * The admin dashboard (docs/functional-requirements.md, 'Admin dashboard (/admin)'). Loaded lazily (its own chunk), so technicians' phones
 * never download admin code. The current view lives in `?view=`, so Back and reload keep it.
 */
export function AdminPage() {
  const user = useSignedInUser();
  const { logout } = useAuth();
  const navigate = useNavigate();
  const [searchParams, setSearchParams] = useSearchParams();
  const [leaving, setLeaving] = useState(false);
  const isClient = user.role === 'Client';

  const startView = startViewFor(user);
  const requested = searchParams.get('view');
  const asked: AdminView = isAdminView(requested) ? requested : startView;
  const allowed = mayOpenView(user, asked);
  // A forbidden view is never drawn, not even for a moment: the fallback is shown at once.
  const fallback: AdminView = isClient ? startView : (backTargetOf(asked, user) ?? startView);
  const view: AdminView = allowed ? asked : fallback;

  const goTo = (next: AdminView, replace = false) => {
    setSearchParams(next === startView ? {} : { view: next }, { replace });
  };

  useEffect(() => {
    if (allowed) return;
    toast({ variant: 'destructive', title: ACCESS_RESTRICTED_TITLE, description: ACCESS_RESTRICTED_TEXT });
    setSearchParams(fallback === startView ? {} : { view: fallback }, { replace: true });
  }, [allowed, fallback, startView, setSearchParams]);

  // After an in-dashboard move, focus goes to the new view's heading (screen readers, keyboards).
  const headingRef = useRef<HTMLHeadingElement>(null);
  const firstView = useRef(view);
  useEffect(() => {
    if (firstView.current === view) return;
    firstView.current = view;
    headingRef.current?.focus();
  }, [view]);

  const onLogout = async () => {
    setLeaving(true);
    const done = await logout(() => navigate('/login', { replace: true }));
    if (!done) setLeaving(false);
  };

  const backTarget = backTargetOf(view, user);
  let back;
  if (backTarget !== null) {
    back = (
      <Button variant="outline" size="sm" onClick={() => goTo(backTarget)}>
        <span aria-hidden="true">←</span>
        Back
      </Button>
    );
  } else if (isClient) {
    // Clients have no field app to go back to: their back button signs them out.
    back = (
      <Button variant="outline" size="sm" onClick={() => void onLogout()} disabled={leaving}>
        Logout
      </Button>
    );
  } else {
    back = (
      <Button variant="outline" size="sm" onClick={() => navigate('/purpose')}>
        <span aria-hidden="true">←</span>
        Back to Main App
      </Button>
    );
  }

  return (
    <Screen
      wide
      title="Admin Dashboard"
      subtitle={
        <>
          <span className="font-semibold">{user.name}</span> · {user.role} ·{' '}
          <Link to={CHANGE_PASSWORD_PATH} className="font-medium text-brand-800 underline">
            Change password
          </Link>
        </>
      }
      back={back}
    >
      <h2 ref={headingRef} tabIndex={-1} className="text-2xl font-bold text-slate-900 outline-none">
        {VIEW_TITLES[view]}
      </h2>
      <AdminViewBody view={view} user={user} goTo={goTo} />
    </Screen>
  );
}
