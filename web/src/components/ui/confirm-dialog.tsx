import { useLingui } from '@lingui/react/macro';
import { type KeyboardEvent, type ReactNode, useId } from 'react';
import { Button } from './button.js';

/**
 * A question that must be answered before anything else: an alert dialog over the screen.
 * Cancel has the focus first, so a slip of the thumb never confirms something that cannot be
 * undone; Escape cancels.
 */
export function ConfirmDialog({
  title,
  children,
  confirmLabel,
  cancelLabel,
  destructive = false,
  busy = false,
  onConfirm,
  onCancel,
}: {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  cancelLabel?: string;
  destructive?: boolean;
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const { t } = useLingui();
  const titleId = useId();
  const bodyId = useId();
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape' && !busy) onCancel();
  };
  return (
    <div className="fixed inset-0 z-40 flex items-end justify-center bg-slate-900/60 p-4 sm:items-center">
      <div
        role="alertdialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={bodyId}
        onKeyDown={onKeyDown}
        className="flex w-full max-w-md flex-col gap-4 rounded-xl border border-slate-300 bg-white p-4 shadow-xl"
      >
        <h2 id={titleId} className="text-lg font-bold text-slate-900">
          {title}
        </h2>
        <div id={bodyId} className="text-base text-slate-800">
          {children}
        </div>
        <div className="grid grid-cols-2 gap-3">
          <Button variant="outline" size="lg" onClick={onCancel} disabled={busy} autoFocus>
            {cancelLabel ?? t`Cancel`}
          </Button>
          <Button variant={destructive ? 'destructive' : 'primary'} size="lg" onClick={onConfirm} disabled={busy}>
            {confirmLabel}
          </Button>
        </div>
      </div>
    </div>
  );
}
