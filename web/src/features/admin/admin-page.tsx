import { createElement, Suspense, useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Button } from '../../components/ui/button.js';
import { Screen } from '../../components/ui/screen.js';
import { toast } from '../../components/ui/toast-store.js';
import { CHANGE_PASSWORD_PATH, useAuth, useSignedInUser } from '../auth/index.js';
import { type AdminView, backTargetOf, mayOpenView, startViewFor, tilesUnder, viewBody, viewNamed, viewTitle } from './admin-views.js';

export const ACCESS_RESTRICTED_TITLE = 'Access Restricted';
export const ACCESS_RESTRICTED_TEXT = "You don't have permission to access this section.";

/**
 * The view's title. After an in-dashboard move the focus goes to it (screen readers,
 * keyboards); it lives beside the body, so it moves when the new body is there.
 */
function ViewHeading({ view }: { view: AdminView }) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  const shownView = useRef(view);
  useEffect(() => {
    if (shownView.current === view) return;
    shownView.current = view;
    headingRef.current?.focus();
  }, [view]);
  return (
    <h2 ref={headingRef} tabIndex={-1} className="text-2xl font-bold text-slate-900 outline-none">
      {viewTitle(view)}
    </h2>
  );
}

/**
 * The admin dashboard. Loaded lazily (its own chunk), so technicians' phones never download
 * admin code; each view's body loads when first opened. The current view lives in `?view=`,
 * so Back and reload keep it.
 */
export function AdminPage() {
  const user = useSignedInUser();
  const { logout } = useAuth();
  const navigate = useNavigate();
  const [searchParams, setSearchParams] = useSearchParams();
  const [leaving, setLeaving] = useState(false);
  const isClient = user.role === 'Client';

  const startView = startViewFor(user);
  const asked: AdminView = viewNamed(searchParams.get('view')) ?? startView;
  const allowed = mayOpenView(user, asked);
  // A forbidden view is never drawn, not even for a moment: the fallback is shown at once.
  const fallback: AdminView = backTargetOf(asked, user) ?? startView;
  const view: AdminView = allowed ? asked : fallback;

  const goTo = (next: AdminView, replace = false) => {
    setSearchParams(next === startView ? {} : { view: next }, { replace });
  };

  useEffect(() => {
    if (allowed) return;
    toast({ variant: 'destructive', title: ACCESS_RESTRICTED_TITLE, description: ACCESS_RESTRICTED_TEXT });
    setSearchParams(fallback === startView ? {} : { view: fallback }, { replace: true });
  }, [allowed, fallback, startView, setSearchParams]);

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
      {/* The title waits with its body, so a view is never half drawn. */}
      <Suspense
        fallback={
          <p role="status" className="text-base font-semibold text-slate-800">
            Loading...
          </p>
        }
      >
        <ViewHeading view={view} />
        {/* The table's body for the view, not a component made here: it keeps its state across renders. */}
        {createElement(viewBody(view), { user, goTo, goBack: () => goTo(backTarget ?? startView), tiles: tilesUnder(view, user) })}
      </Suspense>
    </Screen>
  );
}
