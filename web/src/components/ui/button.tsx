import type { ComponentProps } from 'react';
import { cn } from '../../lib/cn.js';

type ButtonVariant = 'primary' | 'secondary' | 'outline' | 'ghost' | 'destructive';
type ButtonSize = 'default' | 'sm' | 'lg';

// Each list goes through cn(): the i18n lint then knows it for classes, not a text to translate.
const variantClasses: Record<ButtonVariant, string> = {
  primary: cn('bg-brand-700 text-white hover:bg-brand-800 disabled:bg-slate-400'),
  secondary: cn('bg-slate-200 text-slate-900 hover:bg-slate-300 disabled:text-slate-500'),
  outline: cn('border-2 border-slate-700 bg-white text-slate-900 hover:bg-slate-100 disabled:border-slate-300 disabled:text-slate-500'),
  ghost: cn('bg-transparent text-slate-900 hover:bg-slate-200 disabled:text-slate-500'),
  destructive: cn('bg-red-700 text-white hover:bg-red-800 disabled:bg-slate-400'),
};

// Every size keeps at least a 44 px touch target (WCAG 2.5.5), gloves included.
const sizeClasses: Record<ButtonSize, string> = {
  sm: cn('min-h-11 px-3 text-sm'),
  default: cn('min-h-12 px-4 text-base'),
  lg: cn('min-h-14 px-6 text-lg'),
};

export function buttonClasses(variant: ButtonVariant = 'primary', size: ButtonSize = 'default', extra?: string): string {
  return cn(
    'inline-flex items-center justify-center gap-2 rounded-lg font-semibold transition-colors disabled:cursor-not-allowed',
    variantClasses[variant],
    sizeClasses[size],
    extra,
  );
}

export interface ButtonProps extends ComponentProps<'button'> {
  variant?: ButtonVariant;
  size?: ButtonSize;
}

export function Button({ variant, size, className, type = 'button', ...props }: ButtonProps) {
  // type defaults to "button" so a button inside a form never submits it by accident.
  return <button type={type} className={buttonClasses(variant, size, className)} {...props} />;
}
