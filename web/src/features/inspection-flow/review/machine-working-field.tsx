import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import { cn } from '../../../lib/cn.js';

export type MachineWorkingAnswer = 'yes' | 'no';

// The value stays 'yes'/'no' (stored and sent); only the label follows the language.
const OPTIONS: ReadonlyArray<{ value: MachineWorkingAnswer; label: MessageDescriptor }> = [
  { value: 'yes', label: msg`Yes` },
  { value: 'no', label: msg`No` },
];

/** The review's one question (docs/functional-requirements.md, 'Inspection flow: Service'): big tap targets, since gloves are common on site. */
export function MachineWorkingField({
  value,
  onChange,
}: {
  value: MachineWorkingAnswer | undefined;
  onChange: (value: MachineWorkingAnswer) => void;
}) {
  const { i18n } = useLingui();
  return (
    <fieldset role="radiogroup" aria-labelledby="machine-working-legend" className="rounded-xl border border-slate-300 bg-white p-4 shadow-sm">
      <legend id="machine-working-legend" className="float-left mb-3 w-full text-lg font-bold text-slate-900">
        <Trans>Is the Machine working?</Trans>
      </legend>
      <div className="clear-both grid grid-cols-2 gap-3">
        {OPTIONS.map((option) => {
          const checked = value === option.value;
          return (
            <label
              key={option.value}
              className={cn(
                'flex min-h-14 cursor-pointer items-center gap-3 rounded-lg border-2 px-4 text-lg font-semibold has-[:focus-visible]:outline-3 has-[:focus-visible]:outline-amber-500',
                checked ? 'border-brand-700 bg-brand-50 text-brand-800' : 'border-slate-400 bg-white text-slate-900',
              )}
            >
              <input
                type="radio"
                name="isMachineWorking"
                value={option.value}
                checked={checked}
                onChange={() => onChange(option.value)}
                className="size-6 accent-brand-700"
              />
              {i18n._(option.label)}
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}
