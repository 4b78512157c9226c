import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { createElement, Suspense, useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Button } from '../../components/ui/button.js';
import { Screen } from '../../components/ui/screen.js';
import { toast } from '../../components/ui/toast-store.js';
import { CHANGE_PASSWORD_PATH, LanguageSwitch, useAuth, useSignedInUser } from '../auth/index.js';
import { type AdminView, backTargetOf, mayOpenView, startViewFor, tilesUnder, viewBody, viewNamed, viewTitle } from './admin-views.js';
import { roleLabel } from '../../lib/role-label.js';

const ACCESS_RESTRICTED = {
  title: msg`Access Restricted`,
  text: msg`You don't have permission to access this section.`,
};

/** The role as shown: stored in English, said in the reader's language. */

/**
 * The view's title. After an in-dashboard move the focus goes to it (screen readers,
 * keyboards); it lives beside the body, so it moves when the new body is there.
 */
function ViewHeading({ view }: { view: AdminView }) {
  const { i18n } = useLingui();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const shownView = useRef(view);
  useEffect(() => {
    if (shownView.current === view) return;
    shownView.current = view;
    headingRef.current?.focus();
  }, [view]);
  return (
    <h2 ref={headingRef} tabIndex={-1} className="text-2xl font-bold text-slate-900 outline-none">
      {i18n._(viewTitle(view))}
    </h2>
  );
}

/**
 * The admin dashboard. Loaded lazily (its own chunk), so technicians' phones never download
 * admin code; each view's body loads when first opened. The current view lives in `?view=`,
 * so Back and reload keep it.
 */
export function AdminPage() {
  const { t, i18n } = useLingui();
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
    toast({ variant: 'destructive', title: i18n._(ACCESS_RESTRICTED.title), description: i18n._(ACCESS_RESTRICTED.text) });
    setSearchParams(fallback === startView ? {} : { view: fallback }, { replace: true });
  }, [allowed, fallback, startView, setSearchParams, i18n]);

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
        <Trans>Back</Trans>
      </Button>
    );
  } else if (isClient) {
    // Clients have no field app to go back to: their back button signs them out.
    back = (
      <Button variant="outline" size="sm" onClick={() => void onLogout()} disabled={leaving}>
        <Trans>Logout</Trans>
      </Button>
    );
  } else {
    back = (
      // On a phone its words take two lines, leaving the title and the language switch room beside it.
      <Button variant="outline" size="sm" className="max-w-32 sm:max-w-none" onClick={() => navigate('/purpose')}>
        <span aria-hidden="true">←</span>
        <Trans>Back to Main App</Trans>
      </Button>
    );
  }

  return (
    <Screen
      wide
      title={t`Admin Dashboard`}
      subtitle={
        // The switch sits at the end of the subtitle's line, and under it where the line is full (phones).
        <div className="flex flex-wrap items-center justify-between gap-x-3 gap-y-2">
          <p className="min-w-0">
            <span className="font-semibold">{user.name}</span> · {roleLabel(user.role)} ·{' '}
            <Link to={CHANGE_PASSWORD_PATH} className="font-medium text-brand-800 underline">
              <Trans>Change password</Trans>
            </Link>
          </p>
          <LanguageSwitch />
        </div>
      }
      back={back}
    >
      {/* The title waits with its body, so a view is never half drawn. */}
      <Suspense
        fallback={
          <p role="status" className="text-base font-semibold text-slate-800">
            <Trans>Loading...</Trans>
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
