import { cn } from '../../lib/cn.js';

/** Matches the shared Input: 48 px high, 16 px text (no iOS zoom), thick border. */
export function selectClasses(invalid: boolean): string {
  return cn(
    'block min-h-12 w-full rounded-lg border-2 bg-white px-3 text-base text-slate-900',
    'disabled:cursor-not-allowed disabled:bg-slate-100 disabled:text-slate-500',
    invalid ? 'border-red-700' : 'border-slate-500 focus:border-brand-700',
  );
}
