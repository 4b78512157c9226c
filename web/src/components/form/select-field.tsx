import type { ReactNode, Ref } from 'react';
import type { SelectOption } from '../ui/filter-select.js';
import { selectClasses } from '../ui/select-classes.js';
import { describedBy, FieldShell } from './field-shell.js';

/**
 * The options with the current value in front when the list lacks it (a stored answer the
 * loaded list no longer offers, or a list still loading), so a select never shows a choice
 * other than the one the form holds.
 */
export function withCurrent(options: readonly SelectOption[], value: string): readonly SelectOption[] {
  if (value === '' || options.some((o) => o.value === value)) return options;
  return [{ value, label: value }, ...options];
}

export interface SelectControlProps {
  id: string;
  value: string;
  onChange: (value: string) => void;
  onBlur?: (() => void);
  options: readonly SelectOption[];
  /** The first, empty option: what to do, or why there is nothing to pick yet. None: a value is always chosen. */
  placeholder?: string;
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
      {placeholder === undefined ? null : <option value="">{placeholder}</option>}
      {options.map((option) => (
        <option key={option.value} value={option.value}>
          {option.label}
        </option>
      ))}
    </select>
  );
}

/** A labelled select that no form field holds (the HKM quick select). */
export function SelectField({ label, ...control }: SelectControlProps & { label: string }) {
  return (
    <FieldShell id={control.id} label={label} required={control.required} hint={control.hint} error={control.error}>
      <SelectControl {...control} />
    </FieldShell>
  );
}
