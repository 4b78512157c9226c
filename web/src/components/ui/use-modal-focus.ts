import { type KeyboardEvent, type RefObject, useEffect } from 'react';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * A modal dialog's focus: it starts on `initial` (or the first control), stays inside while Tab
 * cycles, and returns to the opener when the dialog goes; the page behind does not scroll
 * under a finger. Returns the dialog's keydown handler (Escape calls `onEscape`).
 */
export function useModalFocus(
  dialogRef: RefObject<HTMLElement | null>,
  initialRef: RefObject<HTMLElement | null> | null,
  onEscape: () => void,
): (event: KeyboardEvent) => void {
  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const dialog = dialogRef.current;
    (initialRef?.current ?? dialog?.querySelector<HTMLElement>(FOCUSABLE))?.focus();
    const overflow = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    return () => {
      document.body.style.overflow = overflow;
      // Back to the opener, unless focus was already sent somewhere on purpose (after a delete).
      const active = document.activeElement;
      const lost = active === null || active === document.body || (dialog?.contains(active) ?? false);
      if (lost && opener?.isConnected) opener.focus();
    };
    // Once per opening: the refs are stable and the handler is read at keydown time.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  return (event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      onEscape();
      return;
    }
    if (event.key !== 'Tab' || !dialogRef.current) return;
    const focusable = [...dialogRef.current.querySelectorAll<HTMLElement>(FOCUSABLE)];
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    if (!first || !last) return;
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  };
}
