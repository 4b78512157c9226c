import { zodResolver } from '@hookform/resolvers/zod';
import { useLingui } from '@lingui/react/macro';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { MIN_PASSWORD_LENGTH } from '../../../../common/constants.js';
import { loginResponseSchema, type PublicUser } from '../../../../common/schemas/auth.js';
import type { ChangePasswordRequest } from '../../../../common/schemas/user-password.js';
import { Button } from '../../components/ui/button.js';
import { Input } from '../../components/ui/input.js';
import { FieldError, Label } from '../../components/ui/label.js';
import { apiErrorMessage, apiRequest, errorStatus, isNetworkError } from '../../lib/api-client.js';
import { apiErrorFields } from '../../lib/api-failure.js';
import { type ChangePasswordForm, changePasswordFormSchema } from './change-password-schema.js';

async function postChangePassword(body: ChangePasswordRequest): Promise<PublicUser> {
  const res = await apiRequest('POST', '/api/auth/change-password', body);
  return loginResponseSchema.parse(await res.json()).user;
}

const FIELDS = ['currentPassword', 'newPassword'] as const;

/** Current password, new password and its confirmation; `onChanged` gets the user the server answered. */
export function ChangePasswordForm({ user, onChanged }: { user: PublicUser; onChanged: (user: PublicUser) => void }) {
  const { t } = useLingui();
  const [formError, setFormError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<ChangePasswordForm>({
    resolver: zodResolver(changePasswordFormSchema(user)),
    defaultValues: { currentPassword: '', newPassword: '', confirmNewPassword: '' },
  });

  const change = useMutation({
    mutationFn: postChangePassword,
    onSuccess: onChanged,
    onError: (error) => {
      // The server's field problems go under their fields (wrong current password, a rule).
      const fields = apiErrorFields(error);
      let placed = false;
      for (const name of FIELDS) {
        const message = fields[name];
        if (message === undefined) continue;
        setError(name, { type: 'server', message }, { shouldFocus: !placed });
        placed = true;
      }
      if (placed) return;
      const failed = t`The password could not be changed. Please try again.`;
      if (isNetworkError(error)) setFormError(t`Cannot reach the server. Check your connection and try again.`);
      else if (errorStatus(error) === null) setFormError(failed);
      else setFormError(apiErrorMessage(error, failed));
    },
  });
  const busy = change.isPending;

  const onSubmit = (values: ChangePasswordForm) => {
    setFormError(null);
    change.mutate({ currentPassword: values.currentPassword, newPassword: values.newPassword });
  };

  const describedBy = (name: keyof ChangePasswordForm, extra?: string) =>
    [extra, errors[name] ? `${name}-error` : undefined].filter(Boolean).join(' ') || undefined;

  /** One password input with its label and the error under it (the three fields differ only in these). */
  const passwordField = (name: keyof ChangePasswordForm, label: string, autoComplete: string, rulesId?: string) => (
    <div>
      <Label htmlFor={name}>{label}</Label>
      <Input
        id={name}
        type="password"
        autoComplete={autoComplete}
        aria-required="true"
        aria-describedby={describedBy(name, rulesId)}
        invalid={errors[name] !== undefined}
        className="mt-1"
        {...register(name)}
      />
      <FieldError id={`${name}-error`} message={errors[name]?.message} />
    </div>
  );

  const minLength = MIN_PASSWORD_LENGTH;
  return (
    <form noValidate onSubmit={handleSubmit(onSubmit)} className="flex flex-col gap-4" aria-label={t`Change password`}>
      <p id="password-rules" className="rounded-lg bg-slate-100 p-3 text-base text-slate-900">
        <span className="font-semibold">{t`Your new password:`} </span>
        {t`At least ${minLength} characters, and not your employee ID or phone number.`}
      </p>
      {/* Lets password managers file the new password under the right account. */}
      <input type="text" name="username" autoComplete="username" value={user.employeeId} readOnly hidden />
      {passwordField('currentPassword', t`Current password`, 'current-password')}
      {passwordField('newPassword', t`New password`, 'new-password', 'password-rules')}
      {passwordField('confirmNewPassword', t`Confirm new password`, 'new-password')}
      {formError !== null ? (
        <p role="alert" className="text-base font-medium text-red-700">
          {formError}
        </p>
      ) : null}
      <Button type="submit" size="lg" disabled={busy} aria-busy={busy || undefined}>
        {busy ? t`Changing...` : t`Change Password`}
      </Button>
    </form>
  );
}
