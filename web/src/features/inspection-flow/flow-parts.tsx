import { useLingui } from '@lingui/react/macro';

/** The spec's 'Step X of Y' line with a step name, and a bar a glance can read outdoors. */
export function StepIndicator({ step, total, name }: { step: number; total: number; name: string }) {
  const { t } = useLingui();
  return (
    <div className="flex flex-col gap-1">
      <p className="flex gap-2 text-sm">
        <span className="font-semibold">{t`Step ${step} of ${total}`}</span>
        <span aria-hidden="true">·</span>
        <span>{name}</span>
      </p>
      <div
        role="progressbar"
        aria-label={t`Inspection progress`}
        aria-valuemin={1}
        aria-valuemax={total}
        aria-valuenow={step}
        className="h-2 w-full overflow-hidden rounded-full bg-slate-200"
      >
        <div className="h-full rounded-full bg-brand-700" style={{ width: `${(step / total) * 100}%` }} />
      </div>
    </div>
  );
}
