import type { ReactNode } from 'react';
import { type Control, type FieldPathByValue, type FieldValues, useController } from 'react-hook-form';
import { Input, type InputProps } from '../ui/input.js';
import type { SelectOption } from '../ui/filter-select.js';
import { describedBy, FieldShell } from './field-shell.js';
import { SelectControl, withCurrent } from './select-field.js';

/** What every bound field shares: the form, the text value it edits, and its labelled shell. */
interface BoundFieldProps<T extends FieldValues, TOut extends FieldValues> {
  control: Control<T, unknown, TOut>;
  name: FieldPathByValue<T, string>;
  /** The control's id, and the stem of its hint's and error's ids; by default the field's name. */
  id?: string;
  label: string;
  required?: boolean;
  /** The red star; by default wherever the field is required. */
  requiredMark?: boolean;
  hint?: ReactNode;
}

/** The field's text, handlers, focus handle (for the first error) and message, from the form. */
function useBoundField<T extends FieldValues, TOut extends FieldValues>({ control, name }: BoundFieldProps<T, TOut>) {
  const { field, fieldState } = useController({ control, name });
  const { onChange, onBlur, ref } = field;
  return { value: field.value as string, onChange, onBlur, ref, error: fieldState.error?.message };
}

/** A select bound to one form field; `onChosen` does what else a choice changes (a new division clears its section). */
export function FormSelect<T extends FieldValues, TOut extends FieldValues>(
  props: BoundFieldProps<T, TOut> & {
    options: readonly SelectOption[];
    placeholder?: string;
    disabled?: boolean;
    onChosen?: (value: string) => void;
  },
) {
  const { name, id = name, label, required = false, requiredMark = required, hint, options, placeholder, disabled, onChosen } = props;
  const { value, onChange, onBlur, ref, error } = useBoundField(props);
  return (
    <FieldShell id={id} label={label} required={requiredMark} hint={hint} error={error}>
      <SelectControl
        id={id}
        ref={ref}
        value={value}
        onChange={(chosen) => {
          onChange(chosen);
          onChosen?.(chosen);
        }}
        onBlur={onBlur}
        options={withCurrent(options, value)}
        placeholder={placeholder}
        disabled={disabled}
        required={required}
        hint={hint}
        error={error}
      />
    </FieldShell>
  );
}

/** A text (or number) input bound to one form field; `mask` rewrites every keystroke or paste. */
export function FormInput<T extends FieldValues, TOut extends FieldValues>(
  props: BoundFieldProps<T, TOut> & Omit<InputProps, 'id' | 'name' | 'value' | 'onChange' | 'onBlur' | 'ref' | 'required'> & { mask?: (text: string) => string },
) {
  const { control: _control, name, id = name, label, required = false, requiredMark = required, hint, mask, ...input } = props;
  const { value, onChange, onBlur, ref, error } = useBoundField(props);
  return (
    <FieldShell id={id} label={label} required={requiredMark} hint={hint} error={error}>
      <Input
        {...input}
        id={id}
        ref={ref}
        value={value}
        onChange={(event) => onChange(mask ? mask(event.target.value) : event.target.value)}
        onBlur={onBlur}
        aria-required={required || undefined}
        invalid={error !== undefined}
        aria-describedby={describedBy(id, hint, error)}
      />
    </FieldShell>
  );
}
