import type { ReactNode } from 'react';
import { cn } from '../../lib/cn.js';

/**
 * The frame of a phone screen: a sticky title bar (optional back action on the left,
 * optional actions on the right) and the content below. `tools` (the language switch) share
 * the subtitle's row, across the bar's whole width, so the title keeps its room on a phone.
 */
export function Screen({
  title,
  subtitle,
  back,
  actions,
  tools,
  wide = false,
  children,
}: {
  title: string;
  subtitle?: ReactNode;
  back?: ReactNode;
  actions?: ReactNode;
  tools?: ReactNode;
  /** Admin screens use the width of a desktop; field screens stay phone-narrow. */
  wide?: boolean;
  children: ReactNode;
}) {
  return (
    <div className={cn('mx-auto flex min-h-dvh w-full flex-col bg-slate-50 shadow-sm', wide ? 'max-w-5xl' : 'max-w-md')}>
      <header className="sticky top-0 z-10 border-b border-slate-300 bg-white px-4 py-3">
        <div className="flex items-center gap-3">
          {back}
          <div className="min-w-0 flex-1">
            <h1 className="truncate text-xl font-bold text-slate-900">{title}</h1>
            {subtitle && !tools ? <div className="text-sm text-slate-700">{subtitle}</div> : null}
          </div>
          {actions}
        </div>
        {tools ? (
          <div className="mt-1 flex flex-wrap items-center justify-between gap-x-3 gap-y-1">
            {subtitle ? <div className="min-w-0 text-sm text-slate-700">{subtitle}</div> : null}
            {tools}
          </div>
        ) : null}
      </header>
      <main className="flex flex-1 flex-col gap-4 p-4">{children}</main>
    </div>
  );
}
