import { t } from '@lingui/core/macro';
import type { FormEvent } from 'react';
import type { FieldPath, FieldValues, UseFormReturn, UseFormSetError } from 'react-hook-form';
import { toast } from '../../../components/ui/toast-store.js';
import { apiErrorFields } from '../../../lib/api-failure.js';

/**
 * The submit of a user management form, in the order the spec's messages come: a blank
 * required field (`isMissing`) is told by the one Validation Error toast, nothing under the
 * fields and nothing sent; then the shared contract judges the rest, its messages under the
 * fields; only a valid form reaches `onValid`, with the contract's parsed body.
 */
export function submitWhenFilled<T extends FieldValues, TBody>(
  form: UseFormReturn<T, unknown, TBody>,
  isMissing: (values: T) => boolean,
  onValid: (body: TBody) => void,
) {
  return (event: FormEvent<HTMLFormElement>) => {
    form.clearErrors();
    if (isMissing(form.getValues())) {
      event.preventDefault();
      toast({ variant: 'destructive', title: t`Validation Error`, description: t`Please fill in all required fields` });
      return;
    }
    void form.handleSubmit(onValid)(event);
  };
}

export const isBlank = (text: string) => text.trim() === '';

/** Puts the field messages of the server's 400 answer under the matching inputs. */
export function showServerFieldErrors<T extends FieldValues>(
  error: unknown,
  known: readonly FieldPath<T>[],
  setError: UseFormSetError<T>,
) {
  const fields = apiErrorFields(error);
  for (const name of known) {
    const message = fields[name];
    if (message !== undefined) setError(name, { type: 'server', message });
  }
}
