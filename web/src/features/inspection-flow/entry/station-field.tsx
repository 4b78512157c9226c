import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { type Control, useController } from 'react-hook-form';
import type { Station } from '../../../../../common/schemas/reference.js';
import { describedBy, FieldShell } from '../../../components/form/field-shell.js';
import { SelectControl, withCurrent } from '../../../components/form/select-field.js';
import { Input } from '../../../components/ui/input.js';
import { cn } from '../../../lib/cn.js';
import type { InspectionEntry } from '../../../../../common/schemas/inspection.js';
import type { EntryFormValues, StationMode } from './entry-values.js';

const MODES: { mode: StationMode; label: MessageDescriptor }[] = [
  { mode: 'list', label: msg`List` },
  { mode: 'manual', label: msg`Manual` },
];

function ModeToggle({ label, mode, onMode }: { label: string; mode: StationMode; onMode: (mode: StationMode) => void }) {
  const { t, i18n } = useLingui();
  return (
    <div role="group" aria-label={t`${label} mode`} className="inline-flex rounded-lg border-2 border-slate-700 bg-white p-0.5">
      {MODES.map((item) => (
        <button
          key={item.mode}
          type="button"
          aria-pressed={mode === item.mode}
          onClick={() => onMode(item.mode)}
          className={cn(
            'min-h-10 min-w-16 rounded-md px-3 text-sm font-semibold',
            mode === item.mode ? 'bg-brand-700 text-white' : 'text-slate-900 hover:bg-slate-100',
          )}
        >
          {i18n._(item.label)}
        </button>
      ))}
    </div>
  );
}

export interface StationListState {
  section: string;
  stations: readonly Station[];
  isLoading: boolean;
  isError: boolean;
}

function listHint({ section, stations, isLoading, isError }: StationListState): MessageDescriptor | undefined {
  if (section === '' || isLoading) return undefined;
  if (isError) return msg`Could not load the stations. Use Manual to type the name.`;
  if (stations.length === 0) return msg`No stations are listed for this section. Use Manual to type the name.`;
  return undefined;
}

/**
 * Station 1 or 2: picked from the section's station list (the default) or typed. The list
 * stores the station name, which is what curve records and the photo overlay carry.
 */
export function StationField({
  control,
  name,
  label,
  mode,
  onMode,
  list,
}: {
  control: Control<EntryFormValues, unknown, InspectionEntry>;
  name: 'station1' | 'station2';
  label: string;
  mode: StationMode;
  onMode: (mode: StationMode) => void;
  list: StationListState;
}) {
  const { t, i18n } = useLingui();
  const { field, fieldState } = useController({ control, name });
  const { value, onChange, onBlur, ref } = field;
  const error = fieldState.error?.message;
  const id = name;
  const hintText = mode === 'list' ? listHint(list) : undefined;
  const hint = hintText === undefined ? undefined : i18n._(hintText);
  // One shell for both modes, so the toggle (and its focus) survives the switch; the form
  // library's focus handle follows whichever control the mode shows.
  return (
    <FieldShell id={id} label={label} hint={hint} error={error} aside={<ModeToggle label={label} mode={mode} onMode={onMode} />}>
      {mode === 'manual' ? (
        <Input
          id={id}
          ref={ref}
          type="text"
          value={value}
          onChange={(event) => onChange(event.target.value)}
          onBlur={onBlur}
          placeholder={t`Type the station name`}
          autoComplete="off"
          invalid={error !== undefined}
          aria-describedby={describedBy(id, undefined, error)}
        />
      ) : (
        <SelectControl
          id={id}
          ref={ref}
          value={value}
          onChange={onChange}
          onBlur={onBlur}
          options={withCurrent(
            list.stations.map((s) => ({ value: s.stationName, label: `${s.stationName} (${s.stationCode})` })),
            value,
          )}
          placeholder={list.section === '' ? t`Select a section first` : list.isLoading ? t`Loading stations...` : t`Select station`}
          disabled={list.section === '' && value === ''}
          hint={hint}
          error={error}
        />
      )}
    </FieldShell>
  );
}
