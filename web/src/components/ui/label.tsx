import { useLingui } from '@lingui/react';
import type { ComponentProps } from 'react';
import { cn } from '../../lib/cn.js';
import { fieldProblemText } from '../../lib/problem-text-registry.js';

export function Label({ className, htmlFor, ...props }: ComponentProps<'label'> & { htmlFor: string }) {
  // htmlFor is required: a label not tied to its control helps neither screen readers nor tests.
  return <label htmlFor={htmlFor} className={cn('block text-base font-semibold text-slate-900', className)} {...props} />;
}

/** A field's validation message, announced when it appears, in the reader's language. */
export function FieldError({ id, message }: { id: string; message: string | undefined }) {
  // Subscribes to the language: the shared schemas' English messages are translated here.
  useLingui();
  if (!message) return null;
  return (
    <p id={id} role="alert" className="mt-1 text-sm font-medium text-red-700">
      {fieldProblemText(message)}
    </p>
  );
}
