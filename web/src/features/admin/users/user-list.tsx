import { useLingui } from '@lingui/react/macro';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { Role } from '../../../../../common/constants.js';
import { type ManagedUser, managedUserResponseSchema, userListResponseSchema } from '../../../../../common/schemas/user.js';
import { Button } from '../../../components/ui/button.js';
import { Card, CardTitle } from '../../../components/ui/card.js';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.js';
import { toast } from '../../../components/ui/toast-store.js';
import { apiRequest } from '../../../lib/api-client.js';
import { failureText } from '../../../lib/api-failure.js';
import { cn } from '../../../lib/cn.js';
import { useSignedInUser } from '../../auth/index.js';
import { ROLE_TEXTS } from '../../../lib/role-label.js';

export const USERS_QUERY_KEY = ['/api/users'] as const;

function RoleBadge({ role }: { role: Role }) {
  const { i18n } = useLingui();
  return (
    <span
      className={cn(
        'inline-flex items-center rounded-full px-3 py-1 text-sm font-bold',
        role === 'Admin' ? 'bg-red-700 text-white' : role === 'Client' ? 'bg-sky-100 text-sky-900' : 'bg-slate-200 text-slate-900',
      )}
    >
      {i18n._(ROLE_TEXTS[role])}
    </span>
  );
}

function Badge({ className, children }: { className: string; children: string }) {
  return <span className={cn('inline-flex items-center rounded-full px-3 py-1 text-sm font-semibold', className)}>{children}</span>;
}

/**
 * Switching an account off or on again. Off asks first: it signs the user out everywhere at
 * once. The server decides who may (owner accounts only by an owner, never one's own); the
 * button is offered only where it would be allowed.
 */
function AccountSwitch({ user }: { user: ManagedUser }) {
  const { t } = useLingui();
  const me = useSignedInUser();
  const queryClient = useQueryClient();
  const [asking, setAsking] = useState(false);
  const change = useMutation({
    mutationFn: async (active: boolean) => {
      const path = `/api/users/${encodeURIComponent(user.employeeId)}/${active ? 'reactivate' : 'deactivate'}`;
      return managedUserResponseSchema.parse(await (await apiRequest('POST', path)).json()).user;
    },
    onSuccess: (changed) => {
      setAsking(false);
      const who = `${changed.name} (${changed.employeeId})`;
      toast(
        changed.active
          ? { title: t`User Reactivated`, description: t`${who} can sign in again.` }
          : { title: t`User Deactivated`, description: t`${who} is signed out and can no longer sign in.` },
      );
      void queryClient.invalidateQueries({ queryKey: USERS_QUERY_KEY });
    },
    onError: (error, active) => {
      setAsking(false);
      toast({
        variant: 'destructive',
        title: t`Error`,
        description: failureText(active ? t`Failed to reactivate user` : t`Failed to deactivate user`, error),
      });
    },
  });
  if (user.id === me.id || (user.isOwner && !me.isOwner)) return null;
  const busy = change.isPending;
  // `who` is 'Name (EMPLOYEE_ID)'.
  const who = `${user.name} (${user.employeeId})`;
  const { name } = user;
  if (!user.active) {
    return (
      <Button variant="outline" size="sm" disabled={busy} aria-busy={busy || undefined} aria-label={t`Reactivate ${who}`} onClick={() => change.mutate(true)}>
        {busy ? t`Reactivating...` : t`Reactivate`}
      </Button>
    );
  }
  return (
    <>
      <Button variant="outline" size="sm" aria-label={t`Deactivate ${who}`} onClick={() => setAsking(true)}>
        {t`Deactivate`}
      </Button>
      {asking ? (
        <ConfirmDialog
          title={t`Deactivate ${name}?`}
          confirmLabel={busy ? t`Deactivating...` : t`Deactivate`}
          destructive
          busy={busy}
          onConfirm={() => change.mutate(false)}
          onCancel={() => setAsking(false)}
        >
          {t`${who} is signed out at once on every device and cannot sign in until an Admin reactivates the account. Their records keep their name.`}
        </ConfirmDialog>
      ) : null}
    </>
  );
}

export function UserList() {
  const { t } = useLingui();
  const users = useQuery({
    queryKey: USERS_QUERY_KEY,
    select: (body: unknown) => userListResponseSchema.parse(body).users,
  });

  let body;
  if (users.isPending) {
    body = <p className="text-base text-slate-700">{t`Loading users...`}</p>;
  } else if (users.isError) {
    body = (
      <p role="alert" className="text-base font-medium text-red-700">
        {failureText(t`Failed to load users`, users.error)}
      </p>
    );
  } else if (users.data.length === 0) {
    body = <p className="text-base text-slate-700">{t`No users found. Add a new user to get started.`}</p>;
  } else {
    body = (
      <ul className="divide-y divide-slate-200" aria-label={t`Users`}>
        {users.data.map((user: ManagedUser) => (
          <li key={user.id} className="flex flex-wrap items-center justify-between gap-2 py-3">
            <div className="min-w-0">
              <p className={cn('truncate text-base font-semibold', user.active ? 'text-slate-900' : 'text-slate-700')}>{user.name}</p>
              <p className="text-sm text-slate-700">
                {user.employeeId}
                {user.divisionAccess ? ` · ${user.divisionAccess}` : ''}
              </p>
            </div>
            <div className="flex flex-wrap items-center gap-2">
              {user.active ? null : <Badge className="border border-slate-500 bg-white text-slate-900">{t`Inactive`}</Badge>}
              {user.isDemo ? <Badge className="bg-violet-100 text-violet-950">{t`Demo account`}</Badge> : null}
              {user.mustChangePassword ? <Badge className="bg-amber-100 text-amber-950">{t`Password not yet chosen`}</Badge> : null}
              <RoleBadge role={user.role} />
              <AccountSwitch user={user} />
            </div>
          </li>
        ))}
      </ul>
    );
  }

  return (
    <Card aria-labelledby="users-title" className="lg:col-span-2">
      <CardTitle id="users-title">{t`Users`}</CardTitle>
      <div className="mt-2">{body}</div>
    </Card>
  );
}
