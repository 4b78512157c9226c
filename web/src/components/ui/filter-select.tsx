import { Label } from './label.js';
import { cn } from '../../lib/cn.js';
import { selectClasses } from './select-classes.js';

export interface SelectOption {
  value: string;
  label: string;
}

/** A labelled filter list whose first choice means "no filter" (All divisions, All types ...). */
export function FilterSelect({
  id,
  label,
  value,
  onChange,
  all,
  options,
  className,
  disabled = false,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** The "no filter" choice. */
  all: SelectOption;
  options: readonly (SelectOption | string)[];
  className?: string;
  disabled?: boolean;
}) {
  return (
    <div className={className}>
      <Label htmlFor={id}>{label}</Label>
      <select id={id} value={value} disabled={disabled} onChange={(event) => onChange(event.target.value)} className={cn(selectClasses(false), 'mt-1')}>
        <option value={all.value}>{all.label}</option>
        {options.map((option) => {
          const { value: optionValue, label: optionLabel } = typeof option === 'string' ? { value: option, label: option } : option;
          return (
            <option key={optionValue} value={optionValue}>
              {optionLabel}
            </option>
          );
        })}
      </select>
    </div>
  );
}
