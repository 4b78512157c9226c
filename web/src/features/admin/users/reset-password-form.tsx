import { useLingui } from '@lingui/react/macro';
import { useMutation } from '@tanstack/react-query';
import { type ResetPasswordRequest, resetPasswordRequestSchema } from '../../../../../common/schemas/user.js';
import { FormInput } from '../../../components/form/bound-fields.js';
import { useSchemaForm } from '../../../components/form/use-schema-form.js';
import { Button } from '../../../components/ui/button.js';
import { Card, CardTitle } from '../../../components/ui/card.js';
import { toast } from '../../../components/ui/toast-store.js';
import { apiRequest } from '../../../lib/api-client.js';
import { failureText } from '../../../lib/api-failure.js';
import { isBlank, showServerFieldErrors, submitWhenFilled } from './user-form.js';

interface ResetValues {
  employeeId: string;
  newPassword: string;
}
const RESET_FIELDS = ['employeeId', 'newPassword'] as const;
const emptyReset: ResetValues = { employeeId: '', newPassword: '' };

// A password of spaces is a password: only an empty one is missing.
const isMissing = (values: ResetValues) => isBlank(values.employeeId) || values.newPassword === '';

async function postReset(body: ResetPasswordRequest) {
  await apiRequest('POST', '/api/auth/reset-password', body);
  return body.employeeId;
}

export function ResetPasswordForm() {
  const { t } = useLingui();
  const form = useSchemaForm<ResetValues, ResetPasswordRequest>({ contract: resetPasswordRequestSchema, defaultValues: emptyReset });
  const { control, reset, setError } = form;

  const resetPassword = useMutation({
    mutationFn: postReset,
    onSuccess: (employeeId) => {
      toast({ title: t`Password Reset`, description: t`The password of ${employeeId} has been reset. They choose their own at their next sign-in.` });
      reset(emptyReset);
    },
    onError: (error) => {
      toast({ variant: 'destructive', title: t`Error`, description: failureText(t`Failed to reset password`, error) });
      showServerFieldErrors(error, RESET_FIELDS, setError);
    },
  });
  const busy = resetPassword.isPending;
  // Both fields are required; like the Add User form, it marks neither with a star.
  const text = { control, required: true, requiredMark: false } as const;

  return (
    <Card aria-labelledby="reset-password-title">
      <CardTitle id="reset-password-title">{t`Reset Password`}</CardTitle>
      <form noValidate aria-labelledby="reset-password-title" onSubmit={submitWhenFilled(form, isMissing, (body) => resetPassword.mutate(body))} className="mt-3 flex flex-col gap-4">
        <FormInput {...text} name="employeeId" id="reset-employeeId" label={t`Employee ID`} autoComplete="off" autoCapitalize="none" spellCheck={false} />
        <FormInput {...text} name="newPassword" id="reset-newPassword" label={t`New Password`} type="password" autoComplete="new-password" />
        <Button type="submit" disabled={busy} aria-busy={busy || undefined}>
          {busy ? t`Resetting...` : t`Reset Password`}
        </Button>
      </form>
    </Card>
  );
}
