import { Trans, useLingui } from '@lingui/react/macro';
import { type ReactNode, useState } from 'react';
import { useNavigate } from 'react-router';
import type { PublicUser } from '../../../../common/schemas/auth.js';
import { BackButton } from '../../components/ui/back-button.js';
import { Button } from '../../components/ui/button.js';
import { Card } from '../../components/ui/card.js';
import { Screen } from '../../components/ui/screen.js';
import { toast } from '../../components/ui/toast-store.js';
import { useAuth, useSignedInUser } from './auth-context.js';
import { ChangePasswordForm } from './change-password-form.js';
import { homePathFor, mustChangePassword } from './home-path.js';

/**
 * /change-password. A user whose password someone else chose is held here (the route guards
 * send them back) until they choose their own; anyone signed in may also come here to change
 * theirs. `notice` is drawn above the form (the app puts the outbox's waiting count there).
 */
export function ChangePasswordPage({ notice }: { notice?: ReactNode }) {
  const { t } = useLingui();
  const user = useSignedInUser();
  const { signIn, logout } = useAuth();
  const navigate = useNavigate();
  const [leaving, setLeaving] = useState(false);
  const forced = mustChangePassword(user);
  const home = homePathFor(user.role);

  const onChanged = (fresh: PublicUser) => {
    // The stored user no longer asks for a change: the guards let them through, and the
    // outbox sends what waited for the new password.
    signIn(fresh);
    toast({ title: t`Password Changed`, description: t`Your new password is saved.` });
    navigate(homePathFor(fresh.role), { replace: true });
  };

  const onSignOut = async () => {
    setLeaving(true);
    const signedOut = await logout(() => navigate('/', { replace: true }));
    if (!signedOut) setLeaving(false);
  };

  return (
    <Screen
      title={t`Change Password`}
      subtitle={
        <>
          <span className="font-semibold">{user.name}</span> · {user.employeeId}
        </>
      }
      back={forced ? undefined : <BackButton to={home} />}
      actions={
        forced ? (
          <Button variant="outline" size="sm" onClick={() => void onSignOut()} disabled={leaving}>
            <Trans>Sign Out</Trans>
          </Button>
        ) : undefined
      }
    >
      {forced ? (
        <p role="status" className="rounded-lg border-2 border-amber-700 bg-amber-50 p-3 text-base font-semibold text-amber-950">
          <Trans>Your password was set by an administrator. Choose your own password to continue.</Trans>
        </p>
      ) : null}
      {notice}
      <Card>
        <ChangePasswordForm user={user} onChanged={onChanged} />
      </Card>
    </Screen>
  );
}
