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
import { USER_TEXTS } from './user-texts.js';

export const USERS_QUERY_KEY = ['/api/users'] as const;

function RoleBadge({ role }: { role: Role }) {
  return (
    <span
      className={cn(
        'inline-flex items-center rounded-full px-3 py-1 text-sm font-bold',
        role === 'Admin' ? 'bg-red-700 text-white' : role === 'Client' ? 'bg-sky-100 text-sky-900' : 'bg-slate-200 text-slate-900',
      )}
    >
      {role}
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
          ? { title: USER_TEXTS.userReactivated, description: USER_TEXTS.reactivatedText(who) }
          : { title: USER_TEXTS.userDeactivated, description: USER_TEXTS.deactivatedText(who) },
      );
      void queryClient.invalidateQueries({ queryKey: USERS_QUERY_KEY });
    },
    onError: (error, active) => {
      setAsking(false);
      toast({ variant: 'destructive', title: USER_TEXTS.errorTitle, description: failureText(active ? USER_TEXTS.reactivateFailed : USER_TEXTS.deactivateFailed, error) });
    },
  });
  if (user.id === me.id || (user.isOwner && !me.isOwner)) return null;
  const busy = change.isPending;
  const who = `${user.name} (${user.employeeId})`;
  if (!user.active) {
    return (
      <Button variant="outline" size="sm" disabled={busy} aria-busy={busy || undefined} aria-label={`${USER_TEXTS.reactivate} ${who}`} onClick={() => change.mutate(true)}>
        {busy ? USER_TEXTS.reactivating : USER_TEXTS.reactivate}
      </Button>
    );
  }
  return (
    <>
      <Button variant="outline" size="sm" aria-label={`${USER_TEXTS.deactivate} ${who}`} onClick={() => setAsking(true)}>
        {USER_TEXTS.deactivate}
      </Button>
      {asking ? (
        <ConfirmDialog
          title={USER_TEXTS.deactivateQuestion(user.name)}
          confirmLabel={busy ? USER_TEXTS.deactivating : USER_TEXTS.deactivate}
          destructive
          busy={busy}
          onConfirm={() => change.mutate(false)}
          onCancel={() => setAsking(false)}
        >
          {USER_TEXTS.deactivateExplained(who)}
        </ConfirmDialog>
      ) : null}
    </>
  );
}

export function UserList() {
  const users = useQuery({
    queryKey: USERS_QUERY_KEY,
    select: (body: unknown) => userListResponseSchema.parse(body).users,
  });

  let body;
  if (users.isPending) {
    body = <p className="text-base text-slate-700">Loading users...</p>;
  } else if (users.isError) {
    body = (
      <p role="alert" className="text-base font-medium text-red-700">
        {failureText('Failed to load users', users.error)}
      </p>
    );
  } else if (users.data.length === 0) {
    body = <p className="text-base text-slate-700">{USER_TEXTS.emptyList}</p>;
  } else {
    body = (
      <ul className="divide-y divide-slate-200" aria-label="Users">
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
              {user.active ? null : <Badge className="border border-slate-500 bg-white text-slate-900">{USER_TEXTS.inactiveBadge}</Badge>}
              {user.isDemo ? <Badge className="bg-violet-100 text-violet-950">{USER_TEXTS.demoBadge}</Badge> : null}
              {user.mustChangePassword ? <Badge className="bg-amber-100 text-amber-950">{USER_TEXTS.mustChangePasswordBadge}</Badge> : null}
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
      <CardTitle id="users-title">Users</CardTitle>
      <div className="mt-2">{body}</div>
    </Card>
  );
}
