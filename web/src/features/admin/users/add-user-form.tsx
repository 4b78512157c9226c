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
import { USER_TEXTS } from './user-texts.js';

interface AddUserValues {
  employeeId: string;
  name: string;
  phone: string;
  role: Role;
  divisionAccess: string;
}

const ADD_USER_FIELDS = ['employeeId', 'name', 'phone', 'role', 'divisionAccess'] as const;
const emptyUser: AddUserValues = { employeeId: '', name: '', phone: '', role: DEFAULT_ROLE, divisionAccess: '' };
const ROLE_OPTIONS = ROLES.map((role) => ({ value: role, label: role }));
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
  const queryClient = useQueryClient();
  const form = useSchemaForm<AddUserValues, CreateUserRequest>({ contract: createUserRequestSchema, defaultValues: emptyUser, toInput: toRequest });
  const { control, reset, setError } = form;
  const isClient = useWatch({ control, name: 'role' }) === 'Client';

  const addUser = useMutation({
    mutationFn: postUser,
    onSuccess: (user) => {
      toast({ title: USER_TEXTS.userAdded, description: `${user.name} (${user.employeeId}) can sign in with their phone number, then chooses their own password.` });
      reset(emptyUser);
      void queryClient.invalidateQueries({ queryKey: USERS_QUERY_KEY });
    },
    onError: (error) => {
      toast({ variant: 'destructive', title: USER_TEXTS.errorTitle, description: failureText(USER_TEXTS.addFailed, error) });
      showServerFieldErrors(error, ADD_USER_FIELDS, setError);
    },
  });
  const busy = addUser.isPending;
  const text = { control, required: true, requiredMark: false } as const;

  return (
    <Card aria-labelledby="add-user-title">
      <CardTitle id="add-user-title">{USER_TEXTS.addUser}</CardTitle>
      <form noValidate aria-labelledby="add-user-title" onSubmit={submitWhenFilled(form, isMissing, (body) => addUser.mutate(body))} className="mt-3 flex flex-col gap-4">
        <FormInput {...text} name="employeeId" id="add-employeeId" label="Employee ID" autoComplete="off" autoCapitalize="none" spellCheck={false} />
        <FormInput {...text} name="name" id="add-name" label="Name" autoComplete="off" />
        <FormInput {...text} name="phone" id="add-phone" label="Phone" type="tel" inputMode="tel" autoComplete="off" />
        <FormSelect control={control} name="role" id="add-role" label="Role" options={ROLE_OPTIONS} />
        {isClient ? (
          <FormSelect {...text} name="divisionAccess" id="add-divisionAccess" label="Division Access" options={DIVISION_OPTIONS} placeholder="Select division" />
        ) : null}
        <Button type="submit" disabled={busy} aria-busy={busy || undefined}>
          {busy ? USER_TEXTS.adding : USER_TEXTS.addUser}
        </Button>
      </form>
    </Card>
  );
}
