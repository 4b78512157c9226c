import type { ReactNode } from 'react';
import { FieldError, Label } from '../ui/label.js';

/** The ids a control names in aria-describedby: its hint and its current error. */
export function describedBy(id: string, hint: ReactNode, error: string | undefined): string | undefined {
  const ids = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean);
  return ids.length > 0 ? ids.join(' ') : undefined;
}

interface FieldShellProps {
  id: string;
  label: string;
  /** Draws the red star beside the label. */
  required?: boolean;
  hint?: ReactNode;
  error?: string;
  /** Sits on the label's row, e.g. a List/Manual toggle. */
  aside?: ReactNode;
}

/**
 * Label, control, hint and error of one field, tied together by ids (`<id>-hint`,
 * `<id>-error`). The required mark sits outside the label so the control's accessible name is
 * exactly the field's name; the label's row is at least 44 px high, a thumb's target.
 */
export function FieldShell({ id, label, required = false, hint, error, aside, children }: FieldShellProps & { children: ReactNode }) {
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
