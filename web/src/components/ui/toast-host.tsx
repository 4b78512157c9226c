import { useLingui } from '@lingui/react/macro';
import { cn } from '../../lib/cn.js';
import { dismissToast, type ToastItem, useToasts } from './toast-store.js';

function Toast({ item }: { item: ToastItem }) {
  const { t } = useLingui();
  const destructive = item.variant === 'destructive';
  return (
    <div
      // Errors interrupt (alert); everything else waits its turn (status).
      role={destructive ? 'alert' : 'status'}
      aria-live={destructive ? 'assertive' : 'polite'}
      aria-atomic="true"
      className={cn(
        'pointer-events-auto flex w-full items-start gap-3 rounded-xl border-2 p-4 shadow-lg',
        destructive ? 'border-red-900 bg-red-700 text-white' : 'border-slate-300 bg-white text-slate-900',
      )}
    >
      <div className="min-w-0 flex-1">
        <p className="text-base font-bold">{item.title}</p>
        {item.description ? <p className="mt-1 text-sm">{item.description}</p> : null}
      </div>
      <button
        type="button"
        aria-label={t`Close notification`}
        onClick={() => dismissToast(item.id)}
        className={cn(
          '-m-2 inline-flex size-11 shrink-0 items-center justify-center rounded-lg text-2xl leading-none',
          destructive ? 'hover:bg-red-800' : 'hover:bg-slate-100',
        )}
      >
        <span aria-hidden="true">×</span>
      </button>
    </div>
  );
}

export function ToastHost() {
  const { t } = useLingui();
  const toasts = useToasts();
  return (
    <div
      role="region"
      aria-label={t`Notifications`}
      className="pointer-events-none fixed inset-x-0 top-0 z-50 mx-auto flex w-full max-w-md flex-col gap-2 p-3"
    >
      {toasts.map((item) => (
        <Toast key={item.id} item={item} />
      ))}
    </div>
  );
}
