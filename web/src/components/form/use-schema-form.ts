import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { type DefaultValues, type FieldValues, useForm, type UseFormReturn } from 'react-hook-form';
import { z } from 'zod';

/**
 * The one shape of a form: it holds its answers as text ('' for nothing chosen, as inputs and
 * selects give them), a shared contract from common/schemas is the only judge of them, its
 * messages land under the fields (after the first submit, on every change), and the submit
 * handler receives the contract's parsed output. `toInput` spells the form's text the way the
 * contract reads it where the two differ (an empty select as null, a field that only travels
 * for one role).
 *
 * Zod comes with it: only forms that load apart from the technician's first page use it.
 */
export function useSchemaForm<TValues extends FieldValues, TOutput extends FieldValues>({
  contract,
  defaultValues,
  toInput = (values) => values,
}: {
  contract: z.ZodType<TOutput>;
  defaultValues: DefaultValues<TValues>;
  toInput?: (values: TValues) => unknown;
}): UseFormReturn<TValues, unknown, TOutput> {
  // Built once: a new resolver on every render would make the form library revalidate needlessly.
  const [resolver] = useState(() => zodResolver(z.custom<TValues>().transform(toInput).pipe(contract)));
  return useForm<TValues, unknown, TOutput>({ resolver, defaultValues });
}
