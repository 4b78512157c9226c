import { useLingui } from '@lingui/react/macro';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useWatch } from 'react-hook-form';
import { z } from 'zod';
import { DEFAULT_ROLE, DIVISIONS, ROLES, type Role } from '../../../../../common/constants.js';
import { publicUserSchema } from '../../../../../common/schemas/auth.js';
import { type CreateUserRequest, createUserRequestSchema } from '../../../../../common/schemas/user.js';
import { FormInput, FormSelect } from '../../../components/form/bound-fields.js';
import { useSchemaForm } from '../../../components/form/use-schema-form.js';
import { Button } from '../../../components/ui/button.js';
import { Card, CardTitle } from '../../../components/ui/card.js';
import { toast } from '../../../components/ui/toast-store.js';
import { apiRequest } from '../../../lib/api-client.js';
import { failureText } from '../../../lib/api-failure.js';
import { USERS_QUERY_KEY } from './user-list.js';
import { isBlank, showServerFieldErrors, submitWhenFilled } from './user-form.js';
import { ROLE_TEXTS } from '../../../lib/role-label.js';

interface AddUserValues {
  employeeId: string;
  name: string;
  phone: string;
  role: Role;
  divisionAccess: string;
}

const ADD_USER_FIELDS = ['employeeId', 'name', 'phone', 'role', 'divisionAccess'] as const;
const emptyUser: AddUserValues = { employeeId: '', name: '', phone: '', role: DEFAULT_ROLE, divisionAccess: '' };
const DIVISION_OPTIONS = DIVISIONS.map((division) => ({ value: division, label: division }));

/** A division only travels for a Client: one picked before the role changed stays behind. */
const toRequest = (values: AddUserValues): unknown => ({ ...values, divisionAccess: values.role === 'Client' ? values.divisionAccess : undefined });

const isMissing = (values: AddUserValues) =>
  isBlank(values.employeeId) || isBlank(values.name) || isBlank(values.phone) || (values.role === 'Client' && values.divisionAccess === '');

async function postUser(body: CreateUserRequest) {
  const res = await apiRequest('POST', '/api/users', body);
  return z.object({ user: publicUserSchema }).parse(await res.json()).user;
}

/*
 * Every field is required but Role, which always holds one: the form marks none with a star,
 * and a blank one is told by the Validation Error toast.
 */
export function AddUserForm() {
  const { t, i18n } = useLingui();
  const queryClient = useQueryClient();
  const form = useSchemaForm<AddUserValues, CreateUserRequest>({ contract: createUserRequestSchema, defaultValues: emptyUser, toInput: toRequest });
  const { control, reset, setError } = form;
  const isClient = useWatch({ control, name: 'role' }) === 'Client';

  const addUser = useMutation({
    mutationFn: postUser,
    onSuccess: (user) => {
      const { name, employeeId } = user;
      toast({ title: t`User Added`, description: t`${name} (${employeeId}) can sign in with their phone number, then chooses their own password.` });
      reset(emptyUser);
      void queryClient.invalidateQueries({ queryKey: USERS_QUERY_KEY });
    },
    onError: (error) => {
      toast({ variant: 'destructive', title: t`Error`, description: failureText(t`Failed to add user`, error) });
      showServerFieldErrors(error, ADD_USER_FIELDS, setError);
    },
  });
  const busy = addUser.isPending;
  const text = { control, required: true, requiredMark: false } as const;
  // The role is sent in English; its name is shown in the reader's language.
  const roleOptions = ROLES.map((role) => ({ value: role, label: i18n._(ROLE_TEXTS[role]) }));

  return (
    <Card aria-labelledby="add-user-title">
      <CardTitle id="add-user-title">{t`Add User`}</CardTitle>
      <form noValidate aria-labelledby="add-user-title" onSubmit={submitWhenFilled(form, isMissing, (body) => addUser.mutate(body))} className="mt-3 flex flex-col gap-4">
        <FormInput {...text} name="employeeId" id="add-employeeId" label={t`Employee ID`} autoComplete="off" autoCapitalize="none" spellCheck={false} />
        <FormInput {...text} name="name" id="add-name" label={t`Name`} autoComplete="off" />
        <FormInput {...text} name="phone" id="add-phone" label={t`Phone`} type="tel" inputMode="tel" autoComplete="off" />
        <FormSelect control={control} name="role" id="add-role" label={t`Role`} options={roleOptions} />
        {isClient ? (
          <FormSelect {...text} name="divisionAccess" id="add-divisionAccess" label={t`Division Access`} options={DIVISION_OPTIONS} placeholder={t`Select division`} />
        ) : null}
        <Button type="submit" disabled={busy} aria-busy={busy || undefined}>
          {busy ? t`Adding...` : t`Add User`}
        </Button>
      </form>
    </Card>
  );
}
