import type { ComponentProps } from 'react';
import { cn } from '../../lib/cn.js';

export interface InputProps extends ComponentProps<'input'> {
  invalid?: boolean;
}

export function Input({ className, invalid = false, ...props }: InputProps) {
  return (
    <input
      aria-invalid={invalid || undefined}
      // text-base (16 px) stops iOS Safari from zooming into the field on focus.
      className={cn(
        'block min-h-12 w-full rounded-lg border-2 bg-white px-3 text-base text-slate-900 placeholder:text-slate-500',
        'disabled:bg-slate-100 disabled:text-slate-500',
        invalid ? 'border-red-700' : 'border-slate-400 focus:border-brand-700',
        className,
      )}
      {...props}
    />
  );
}
