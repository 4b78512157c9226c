import { Trans } from '@lingui/react/macro';
import { type FormEvent, type ReactNode, useId, useRef } from 'react';
import { Button } from './button.js';
import { useModalFocus } from './use-modal-focus.js';

/**
 * A modal form (Add New Curve, Edit Station Details ...): full screen on a phone, a centred
 * panel on a desktop, with its title and the Cancel and submit buttons kept in reach while the
 * fields scroll. Escape and Cancel close it unless it is busy.
 */
export function FormDialog({
  title,
  submitLabel,
  busyLabel,
  busy,
  onSubmit,
  onClose,
  children,
}: {
  title: string;
  submitLabel: string;
  busyLabel: string;
  busy: boolean;
  onSubmit: () => void;
  onClose: () => void;
  children: ReactNode;
}) {
  const titleId = useId();
  const dialogRef = useRef<HTMLFormElement>(null);
  const close = () => {
    if (!busy) onClose();
  };
  const onKeyDown = useModalFocus(dialogRef, null, close);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!busy) onSubmit();
  };
  return (
    <div className="fixed inset-0 z-30 overflow-y-auto bg-slate-900/60 sm:p-4">
      <form
        ref={dialogRef}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        noValidate
        onSubmit={submit}
        onKeyDown={onKeyDown}
        className="mx-auto flex min-h-full w-full max-w-2xl flex-col bg-white shadow-xl sm:min-h-0 sm:rounded-xl"
      >
        <h2 id={titleId} className="sticky top-0 z-10 border-b border-slate-200 bg-white px-4 py-3 text-xl font-bold text-slate-900 sm:rounded-t-xl">
          {title}
        </h2>
        <div className="flex flex-1 flex-col gap-4 p-4">{children}</div>
        <div className="sticky bottom-0 grid grid-cols-2 gap-3 border-t border-slate-200 bg-white px-4 py-3 sm:rounded-b-xl">
          <Button variant="outline" size="lg" onClick={close} disabled={busy}>
            <Trans>Cancel</Trans>
          </Button>
          <Button type="submit" size="lg" disabled={busy} aria-busy={busy || undefined}>
            {busy ? busyLabel : submitLabel}
          </Button>
        </div>
      </form>
    </div>
  );
}
