import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { type FieldPath, type FieldValues, useForm, type UseFormSetError, useWatch } from 'react-hook-form';
import { z } from 'zod';
import { DEFAULT_ROLE, DIVISIONS, MIN_PASSWORD_LENGTH, ROLES, type Role } from '../../../../common/constants.js';
import { publicUserSchema } from '../../../../common/schemas/auth.js';
import {
  type CreateUserRequest,
  type ManagedUser,
  managedUserResponseSchema,
  type ResetPasswordRequest,
  userListResponseSchema,
} from '../../../../common/schemas/user.js';
import { Button } from '../../components/ui/button.js';
import { ConfirmDialog } from '../../components/ui/confirm-dialog.js';
import { Card, CardTitle } from '../../components/ui/card.js';
import { Input, type InputProps } from '../../components/ui/input.js';
import { FieldError, Label } from '../../components/ui/label.js';
import { toast } from '../../components/ui/toast-store.js';
import { apiRequest } from '../../lib/api-client.js';
import { cn } from '../../lib/cn.js';
import { USER_TEXTS } from './admin-texts.js';
import { apiErrorFields, failureText } from '../../lib/api-failure.js';
import { selectClasses } from '../../components/ui/select-classes.js';
import { useSignedInUser } from '../auth/index.js';

export const USERS_QUERY_KEY = ['/api/users'] as const;

function validationToast() {
  toast({ variant: 'destructive', title: USER_TEXTS.validationTitle, description: USER_TEXTS.validationText });
}

/** Puts the schema's (or the server's) field messages under the matching inputs. */
function showFieldErrors<T extends FieldValues>(
  fields: Record<string, string>,
  known: readonly FieldPath<T>[],
  setError: UseFormSetError<T>,
) {
  for (const name of known) {
    const message = fields[name];
    if (message !== undefined) setError(name, { type: 'server', message });
  }
}

/*
 * The form checks only what a person can fix before sending, with the messages of the shared
 * contract (common/schemas/user.ts); the server validates the whole body with that schema and
 * its `fields` come back under the inputs. The schema itself is not imported here: its Zod
 * checks would land in the entry chunk every technician downloads.
 */
const PHONE_PATTERN = /^\+?\d{10,15}$/;
const PHONE_MESSAGE = 'Phone must be 10 to 15 digits, optionally starting with +';
const PASSWORD_MESSAGE = `Password must be at least ${MIN_PASSWORD_LENGTH} characters`;

/** A required text input with its label and its message, tied together for screen readers. */
function RequiredTextField({ id, label, error, ...input }: InputProps & { id: string; label: string; error: string | undefined }) {
  const errorId = `${id}-error`;
  return (
    <div>
      <Label htmlFor={id}>{label}</Label>
      <Input
        id={id}
        aria-required="true"
        aria-describedby={error ? errorId : undefined}
        invalid={error !== undefined}
        className="mt-1"
        {...input}
      />
      <FieldError id={errorId} message={error} />
    </div>
  );
}

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

function UserList() {
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

interface AddUserValues {
  employeeId: string;
  name: string;
  phone: string;
  role: Role;
  divisionAccess: string;
}

const ADD_USER_FIELDS = ['employeeId', 'name', 'phone', 'role', 'divisionAccess'] as const;
const emptyUser: AddUserValues = { employeeId: '', name: '', phone: '', role: DEFAULT_ROLE, divisionAccess: '' };

async function postUser(body: CreateUserRequest) {
  const res = await apiRequest('POST', '/api/users', body);
  return z.object({ user: publicUserSchema }).parse(await res.json()).user;
}

function AddUserForm() {
  const queryClient = useQueryClient();
  const {
    register,
    handleSubmit,
    control,
    reset,
    setError,
    clearErrors,
    formState: { errors },
  } = useForm<AddUserValues>({ defaultValues: emptyUser });
  const role = useWatch({ control, name: 'role' });
  const isClient = role === 'Client';

  const addUser = useMutation({
    mutationFn: postUser,
    onSuccess: (user) => {
      toast({ title: USER_TEXTS.userAdded, description: `${user.name} (${user.employeeId}) can sign in with their phone number, then chooses their own password.` });
      reset(emptyUser);
      void queryClient.invalidateQueries({ queryKey: USERS_QUERY_KEY });
    },
    onError: (error) => {
      toast({ variant: 'destructive', title: USER_TEXTS.errorTitle, description: failureText(USER_TEXTS.addFailed, error) });
      showFieldErrors(apiErrorFields(error), ADD_USER_FIELDS, setError);
    },
  });
  const busy = addUser.isPending;

  const onSubmit = (values: AddUserValues) => {
    clearErrors();
    const division = DIVISIONS.find((d) => d === values.divisionAccess);
    const required = [values.employeeId, values.name, values.phone];
    if (required.some((value) => value.trim() === '') || (values.role === 'Client' && division === undefined)) {
      validationToast();
      return;
    }
    const phone = values.phone.trim();
    if (!PHONE_PATTERN.test(phone)) {
      setError('phone', { type: 'pattern', message: PHONE_MESSAGE });
      return;
    }
    // A division only travels for a Client.
    const body: CreateUserRequest = {
      employeeId: values.employeeId.trim(),
      name: values.name.trim(),
      phone,
      role: values.role,
      ...(values.role === 'Client' ? { divisionAccess: division } : {}),
    };
    addUser.mutate(body);
  };

  const describe = (name: keyof AddUserValues) => (errors[name] ? `add-${name}-error` : undefined);

  return (
    <Card aria-labelledby="add-user-title">
      <CardTitle id="add-user-title">{USER_TEXTS.addUser}</CardTitle>
      <form noValidate aria-labelledby="add-user-title" onSubmit={handleSubmit(onSubmit)} className="mt-3 flex flex-col gap-4">
        <RequiredTextField
          id="add-employeeId"
          label="Employee ID"
          error={errors.employeeId?.message}
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          {...register('employeeId')}
        />
        <RequiredTextField
          id="add-name"
          label="Name"
          error={errors.name?.message}
          autoComplete="off"
          {...register('name')}
        />
        <RequiredTextField
          id="add-phone"
          label="Phone"
          error={errors.phone?.message}
          type="tel"
          inputMode="tel"
          autoComplete="off"
          {...register('phone')}
        />
        <div>
          <Label htmlFor="add-role">Role</Label>
          <select
            id="add-role"
            aria-describedby={describe('role')}
            className={cn(selectClasses(errors.role !== undefined), 'mt-1')}
            {...register('role')}
          >
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
          <FieldError id="add-role-error" message={errors.role?.message} />
        </div>
        {isClient ? (
          <div>
            <Label htmlFor="add-divisionAccess">Division Access</Label>
            <select
              id="add-divisionAccess"
              aria-required="true"
              aria-describedby={describe('divisionAccess')}
              className={cn(selectClasses(errors.divisionAccess !== undefined), 'mt-1')}
              {...register('divisionAccess')}
            >
              <option value="">Select division</option>
              {DIVISIONS.map((d) => (
                <option key={d} value={d}>
                  {d}
                </option>
              ))}
            </select>
            <FieldError id="add-divisionAccess-error" message={errors.divisionAccess?.message} />
          </div>
        ) : null}
        <Button type="submit" disabled={busy} aria-busy={busy || undefined}>
          {busy ? USER_TEXTS.adding : USER_TEXTS.addUser}
        </Button>
      </form>
    </Card>
  );
}

interface ResetValues {
  employeeId: string;
  newPassword: string;
}
const RESET_FIELDS = ['employeeId', 'newPassword'] as const;
const emptyReset: ResetValues = { employeeId: '', newPassword: '' };

async function postReset(body: ResetPasswordRequest) {
  await apiRequest('POST', '/api/auth/reset-password', body);
  return body.employeeId;
}

function ResetPasswordForm() {
  const {
    register,
    handleSubmit,
    reset,
    setError,
    clearErrors,
    formState: { errors },
  } = useForm<ResetValues>({ defaultValues: emptyReset });

  const resetPassword = useMutation({
    mutationFn: postReset,
    onSuccess: (employeeId) => {
      toast({ title: USER_TEXTS.passwordReset, description: `The password of ${employeeId} has been reset. They choose their own at their next sign-in.` });
      reset(emptyReset);
    },
    onError: (error) => {
      toast({ variant: 'destructive', title: USER_TEXTS.errorTitle, description: failureText(USER_TEXTS.resetFailed, error) });
      showFieldErrors(apiErrorFields(error), RESET_FIELDS, setError);
    },
  });
  const busy = resetPassword.isPending;

  const onSubmit = (values: ResetValues) => {
    clearErrors();
    if (values.employeeId.trim() === '' || values.newPassword === '') {
      validationToast();
      return;
    }
    if (values.newPassword.length < MIN_PASSWORD_LENGTH) {
      setError('newPassword', { type: 'minLength', message: PASSWORD_MESSAGE });
      return;
    }
    resetPassword.mutate({ employeeId: values.employeeId.trim(), newPassword: values.newPassword });
  };

  return (
    <Card aria-labelledby="reset-password-title">
      <CardTitle id="reset-password-title">{USER_TEXTS.resetPassword}</CardTitle>
      <form noValidate aria-labelledby="reset-password-title" onSubmit={handleSubmit(onSubmit)} className="mt-3 flex flex-col gap-4">
        <RequiredTextField
          id="reset-employeeId"
          label="Employee ID"
          error={errors.employeeId?.message}
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          {...register('employeeId')}
        />
        <RequiredTextField
          id="reset-newPassword"
          label="New Password"
          error={errors.newPassword?.message}
          type="password"
          autoComplete="new-password"
          {...register('newPassword')}
        />
        <Button type="submit" disabled={busy} aria-busy={busy || undefined}>
          {busy ? USER_TEXTS.resetting : USER_TEXTS.resetPassword}
        </Button>
      </form>
    </Card>
  );
}

/** docs/functional-requirements.md, 'User management': add a user, reset a password, list users with a role badge (Admins only). */
export function UserManagement() {
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <UserList />
      <AddUserForm />
      <ResetPasswordForm />
    </div>
  );
}

