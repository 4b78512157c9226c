import type { MessageDescriptor } from '@lingui/core';
import { Trans, useLingui } from '@lingui/react/macro';
import { useMutation } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { DIVISIONS, LINES } from '../../../../../common/constants.js';
import { FormDialog } from '../../../components/ui/form-dialog.js';
import { Input } from '../../../components/ui/input.js';
import { FieldError, Label } from '../../../components/ui/label.js';
import { toast } from '../../../components/ui/toast-store.js';
import { cn } from '../../../lib/cn.js';
import { apiErrorFields, failureText } from '../../../lib/api-failure.js';
import { selectClasses } from '../../../components/ui/select-classes.js';
import { lineLabel } from '../../../lib/value-labels.js';

/** One input of a curve or station form: its field name (the API's), its label and its kind. */
export interface FormField<F extends string> {
  name: F;
  /** Read in the language shown when the form is drawn. */
  label: MessageDescriptor;
  required?: boolean;
  kind?: 'text' | 'whole' | 'decimal' | 'division' | 'line' | 'comments';
  /** Suggestions (known sections, SSE names) offered while typing. */
  suggestions?: readonly string[];
  /** Takes the whole row of the form's grid. */
  wide?: boolean;
}

export type FormValues<F extends string> = Record<F, string>;
export type FormBody<F extends string> = Record<F, string | number | null>;

const NUMBER_TEXT = /^[+-]?\d+(\.\d+)?$/;

/**
 * The values as the server takes them: empty optional values as null (as the original app sends them), numbers
 * as numbers. Anything else is sent as typed, and the server's message for it comes back under
 * its input: the rules live once, in the shared schema the server applies.
 */
export function bodyOf<F extends string>(fields: readonly FormField<F>[], values: FormValues<F>): FormBody<F> {
  const body = {} as FormBody<F>;
  for (const field of fields) {
    const text = values[field.name].trim();
    const numeric = field.kind === 'whole' || field.kind === 'decimal';
    body[field.name] = text === '' ? null : numeric && NUMBER_TEXT.test(text) ? Number(text) : field.kind === 'comments' ? values[field.name] : text;
  }
  return body;
}

export function RegisterFormDialog<F extends string, T>({
  title,
  submitLabel,
  busyLabel,
  fields,
  initial,
  save,
  successTitle,
  successText,
  failedText,
  onSaved,
  onClose,
}: {
  title: string;
  submitLabel: string;
  busyLabel: string;
  fields: readonly FormField<F>[];
  initial: FormValues<F>;
  save: (body: FormBody<F>) => Promise<T>;
  successTitle: string;
  successText: (saved: T) => string;
  /** The failure toast's text ('Failed to create curve'); the server's reason follows it. */
  failedText: string;
  onSaved: (saved: T) => void;
  onClose: () => void;
}) {
  const { t } = useLingui();
  const idPrefix = useId();
  const [values, setValues] = useState<FormValues<F>>(initial);
  const [errors, setErrors] = useState<Partial<Record<F, string>>>({});

  const mutation = useMutation({
    mutationFn: save,
    onSuccess: (saved) => {
      toast({ title: successTitle, description: successText(saved) });
      onSaved(saved);
    },
    onError: (error) => {
      toast({ variant: 'destructive', title: t`Error`, description: failureText(failedText, error) });
      const fromServer = apiErrorFields(error);
      const mine: Partial<Record<F, string>> = {};
      for (const field of fields) if (fromServer[field.name]) mine[field.name] = fromServer[field.name];
      setErrors(mine);
    },
  });

  const set = (name: F, value: string) => {
    setValues((v) => ({ ...v, [name]: value }));
    // A corrected field loses its message; the others keep theirs until the next try.
    setErrors((e) => ({ ...e, [name]: undefined }));
  };

  return (
    <FormDialog
      title={title}
      submitLabel={submitLabel}
      busyLabel={busyLabel}
      busy={mutation.isPending}
      onSubmit={() => {
        setErrors({});
        mutation.mutate(bodyOf(fields, values));
      }}
      onClose={onClose}
    >
      <p className="text-sm text-slate-700">
        <Trans>Fields marked * are required.</Trans>
      </p>
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        {fields.map((field) => (
          <FieldInput
            key={field.name}
            id={`${idPrefix}-${field.name}`}
            field={field}
            value={values[field.name]}
            error={errors[field.name]}
            onChange={(value) => set(field.name, value)}
          />
        ))}
      </div>
    </FormDialog>
  );
}

function FieldInput<F extends string>({
  id,
  field,
  value,
  error,
  onChange,
}: {
  id: string;
  field: FormField<F>;
  value: string;
  error: string | undefined;
  onChange: (value: string) => void;
}) {
  const { t, i18n } = useLingui();
  const errorId = `${id}-error`;
  const label = `${i18n._(field.label)}${field.required ? ' *' : ''}`;
  const common = {
    id,
    'aria-required': field.required || undefined,
    'aria-invalid': error !== undefined || undefined,
    'aria-describedby': error ? errorId : undefined,
  };
  const listId = field.suggestions && field.suggestions.length > 0 ? `${id}-suggestions` : undefined;
  let control;
  switch (field.kind) {
    case 'division':
    case 'line': {
      const options = field.kind === 'division' ? DIVISIONS : LINES;
      control = (
        <select {...common} value={value} onChange={(e) => onChange(e.target.value)} className={cn(selectClasses(error !== undefined), 'mt-1')}>
          <option value="">{field.kind === 'division' ? t`Select division` : t`Select line`}</option>
          {options.map((option) => (
            <option key={option} value={option}>
              {/* Divisions are data, shown as stored; a line is stored in English and said in the reader's language. */}
              {field.kind === 'line' ? lineLabel(option) : option}
            </option>
          ))}
        </select>
      );
      break;
    }
    case 'comments':
      control = (
        <textarea
          {...common}
          value={value}
          rows={3}
          onChange={(e) => onChange(e.target.value)}
          className={cn(
            'mt-1 block w-full rounded-lg border-2 bg-white px-3 py-2 text-base text-slate-900',
            error !== undefined ? 'border-red-700' : 'border-slate-400 focus:border-brand-700',
          )}
        />
      );
      break;
    default:
      control = (
        <Input
          {...common}
          className="mt-1"
          value={value}
          invalid={error !== undefined}
          list={listId}
          autoComplete="off"
          inputMode={field.kind === 'whole' ? 'numeric' : field.kind === 'decimal' ? 'decimal' : undefined}
          onChange={(e) => onChange(e.target.value)}
        />
      );
  }
  return (
    <div className={field.wide || field.kind === 'comments' ? 'sm:col-span-2' : undefined}>
      <Label htmlFor={id}>{label}</Label>
      {control}
      {listId ? (
        <datalist id={listId}>
          {field.suggestions?.map((s) => (
            <option key={s} value={s} />
          ))}
        </datalist>
      ) : null}
      <FieldError id={errorId} message={error} />
    </div>
  );
}
