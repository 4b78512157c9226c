import type { ReactNode, Ref } from 'react';
import { FieldError, Label } from '../../../components/ui/label.js';
import { cn } from '../../../lib/cn.js';
import type { Option } from './curve-options.js';

/** Matches the shared Input: 48 px high, 16 px text (no iOS zoom), thick border for sunlight. */
export function selectClasses(invalid: boolean): string {
  return cn(
    'block min-h-12 w-full rounded-lg border-2 bg-white px-3 text-base text-slate-900',
    'disabled:cursor-not-allowed disabled:bg-slate-100 disabled:text-slate-500',
    invalid ? 'border-red-700' : 'border-slate-500 focus:border-brand-700',
  );
}

/** The ids a control names in aria-describedby: its hint and its current error. */
export function describedBy(id: string, hint: ReactNode, error: string | undefined): string | undefined {
  const ids = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean);
  return ids.length > 0 ? ids.join(' ') : undefined;
}

/**
 * Label, control, hint and error of one field. The required mark sits outside the label so
 * the control's accessible name is exactly the spec's field name.
 */
export function FieldShell({
  id,
  label,
  required = false,
  hint,
  error,
  aside,
  children,
}: {
  id: string;
  label: string;
  required?: boolean;
  hint?: ReactNode;
  error?: string;
  /** Sits on the label's row, e.g. a List/Manual toggle. */
  aside?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div>
      <div className="flex min-h-11 flex-wrap items-center justify-between gap-x-3 gap-y-1">
        <span className="flex items-baseline gap-1">
          <Label htmlFor={id}>{label}</Label>
          {required ? (
            <span aria-hidden="true" className="font-bold text-red-700">
              *
            </span>
          ) : null}
        </span>
        {aside}
      </div>
      <div className="mt-1">{children}</div>
      {hint ? (
        <p id={`${id}-hint`} className="mt-1 text-sm text-slate-700">
          {hint}
        </p>
      ) : null}
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}

export interface SelectControlProps {
  id: string;
  value: string;
  onChange: (value: string) => void;
  onBlur?: () => void;
  options: readonly Option[];
  /** The first, empty option: what to do, or why there is nothing to pick yet. */
  placeholder: string;
  disabled?: boolean;
  required?: boolean;
  hint?: ReactNode;
  error?: string;
  ref?: Ref<HTMLSelectElement>;
}

/** A native select: the phone's own picker is the biggest, most familiar target there is. */
export function SelectControl({
  id,
  value,
  onChange,
  onBlur,
  options,
  placeholder,
  disabled = false,
  required = false,
  hint,
  error,
  ref,
}: SelectControlProps) {
  return (
    <select
      id={id}
      ref={ref}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      onBlur={onBlur}
      disabled={disabled}
      aria-required={required || undefined}
      aria-invalid={error ? true : undefined}
      aria-describedby={describedBy(id, hint, error)}
      className={selectClasses(error !== undefined)}
    >
      <option value="">{placeholder}</option>
      {options.map((option) => (
        <option key={option.value} value={option.value}>
          {option.label}
        </option>
      ))}
    </select>
  );
}

export interface SelectFieldProps extends SelectControlProps {
  label: string;
}

export function SelectField({ label, ...control }: SelectFieldProps) {
  return (
    <FieldShell id={control.id} label={label} required={control.required} hint={control.hint} error={control.error}>
      <SelectControl {...control} />
    </FieldShell>
  );
}
