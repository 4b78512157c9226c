import type { I18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useRef, useState } from 'react';
import { useWatch } from 'react-hook-form';
import { DIVISIONS, type InspectionType, type Line, LINES, LOCATIONS } from '../../../../../common/constants.js';
import { maskCofValue } from '../../../../../common/rules/cof-value.js';
import type { Curve } from '../../../../../common/schemas/curve.js';
import { type InspectionEntry, inspectionEntrySchema } from '../../../../../common/schemas/inspection.js';
import type { Station } from '../../../../../common/schemas/reference.js';
import { Button } from '../../../components/ui/button.js';
import { Card, CardTitle } from '../../../components/ui/card.js';
import { Input } from '../../../components/ui/input.js';
import { useCurves, useStationLookup, useStations } from '../api/reference-data.js';
import { urgency } from '../../../../../common/rules/schedule.js';
import { curveKey, type CurveSchedule, statusText, useCurveSchedules } from '../../schedule/index.js';
import { readEntry, writeEntry } from '../flow-storage.js';
import {
  curveEngineer,
  curveLine,
  curveNumberOptions,
  type CurveStatusOf,
  curvesNumbered,
  findCurveByHkm,
  hkmOptions,
  isSingleLineDivision,
  matchStation,
  sectionOptions,
  sseOptions,
} from './curve-options.js';
import {
  emptyEntryValues,
  type EntryFormValues,
  entryContractInput,
  entryValuesFrom,
  type StationMode,
  todayLocal,
  toSessionEntry,
} from './entry-values.js';
import { FormInput, FormSelect } from '../../../components/form/bound-fields.js';
import { FieldShell } from '../../../components/form/field-shell.js';
import { SelectField } from '../../../components/form/select-field.js';
import { useSchemaForm } from '../../../components/form/use-schema-form.js';
import { StationField } from './station-field.js';
import { newSubmissionId } from './submission-id.js';
import { lineLabel, locationLabel } from '../value-labels.js';

type TextField = Exclude<keyof EntryFormValues, 'type'>;
type StationName = 'station1' | 'station2';
const STATIONS: readonly StationName[] = ['station1', 'station2'];

// Divisions are data, shown as stored; lines and locations are stored in English and shown in
// the technician's language, so their options are made at render.
const DIVISION_OPTIONS = DIVISIONS.map((d) => ({ value: d, label: d }));
const lineOptions = (i18n: I18n) => LINES.map((l) => ({ value: l, label: lineLabel(l, i18n) }));
const locationOptions = (i18n: I18n) => LOCATIONS.map((l) => ({ value: l, label: locationLabel(l, i18n) }));
const POSITION_FIELDS = [
  { name: 'km', label: msg`KM` },
  { name: 'pole1', label: msg`Pole 1` },
  { name: 'pole2', label: msg`Pole 2` },
] as const;
// A value (stored and sent in English), not a text: the select shows its label.
const SINGLE_LINE: Line = 'Single';
const NO_CURVES: readonly Curve[] = [];
const NO_STATIONS: readonly Station[] = [];

function CurvesStatus({ query }: { query: ReturnType<typeof useCurves> }) {
  if (query.isPending) {
    return (
      <p role="status" className="rounded-lg border-2 border-slate-300 bg-white p-3 text-base font-semibold text-slate-800">
        <Trans>Loading curves...</Trans>
      </p>
    );
  }
  if (!query.isError) return null;
  return (
    <div role="alert" className="flex flex-col gap-3 rounded-lg border-2 border-red-700 bg-red-50 p-3 text-base text-red-900">
      <p className="font-semibold">
        <Trans>Could not load curves. Check your connection and try again.</Trans>
      </p>
      <Button variant="outline" onClick={() => void query.refetch()} disabled={query.isFetching}>
        <Trans>Retry</Trans>
      </Button>
    </div>
  );
}

/** The chosen curve's due state for this visit, and when it was last done (and by whom, when known). */
function CurveDueNote({ type, schedule }: { type: InspectionType; schedule: CurveSchedule }) {
  const { t } = useLingui();
  const lastDate = (type === 'Service' ? schedule.service : schedule.cof).lastDate;
  const known = type === 'Service' ? schedule.entry.service : schedule.entry.cof;
  // The last visit may be one still in this phone's outbox: then the server's technician is not its.
  const who = lastDate !== null && lastDate === known.lastDate && known.lastTechnician ? known.lastTechnician : null;
  let lastVisit: string | null = null;
  if (lastDate !== null && type === 'Service') lastVisit = who ? t`Last service: ${lastDate} by ${who}` : t`Last service: ${lastDate}`;
  if (lastDate !== null && type === 'CoF') lastVisit = who ? t`Last CoF measurement: ${lastDate} by ${who}` : t`Last CoF measurement: ${lastDate}`;
  return (
    <p id="curve-due-status" className="rounded-lg border-2 border-slate-300 bg-slate-50 p-3 text-base text-slate-900">
      <span className="font-semibold">{statusText(type, schedule)}</span>
      {lastVisit !== null ? <span className="block text-sm text-slate-700">{lastVisit}</span> : null}
    </p>
  );
}

/** A curve chosen before the form opened (a tap on the due list of /purpose). */
export interface CurvePreset {
  divisionRailway: string;
  section: string;
  curveNumber: string;
  line: string;
}

/**
 * Step 1 of both flows (docs/functional-requirements.md, 'Inspection flow: Service'). Saves the session entry and calls
 * onSaved; where to go next is the page's business.
 */
export function EntryForm({ type, preset, onSaved }: { type: InspectionType; preset?: CurvePreset | undefined; onSaved: () => void }) {
  const { t, i18n } = useLingui();
  const [initial] = useState(() => {
    const today = todayLocal();
    // A curve tapped on the due list is a fresh choice: it wins over a half-filled entry.
    if (preset) return { ...emptyEntryValues(type, today), ...preset };
    const stored = readEntry();
    // Coming Back to the same form: start from what was saved.
    return stored !== null && stored.type === type ? entryValuesFrom(stored, type, today) : emptyEntryValues(type, today);
  });
  const {
    control,
    setValue,
    getValues,
    handleSubmit,
    formState: { isSubmitted },
  } = useSchemaForm<EntryFormValues, InspectionEntry>({ contract: inspectionEntrySchema, defaultValues: initial, toInput: entryContractInput });
  const [division, section, sse, curveNumber, line] = useWatch({ control, name: ['divisionRailway', 'section', 'railwayEngineer', 'curveNumber', 'line'] });

  // UI-only state: neither is part of the stored entry.
  const [hkmCode, setHkmCode] = useState('');
  const [stationModes, setStationModes] = useState<Record<StationName, StationMode>>({ station1: 'list', station2: 'list' });

  const curvesQuery = useCurves();
  const curves = curvesQuery.data ?? NO_CURVES;
  // Each curve's due state for this kind of visit, shown in the pickers (offline too).
  const { schedules } = useCurveSchedules();
  const scheduleOf = (section: string, curveNumber: string, line: string) => schedules?.get(curveKey(section, curveNumber, line));
  const statusOf: CurveStatusOf = (curve) => {
    const schedule = scheduleOf(curve.section, curve.curveNumber, curve.line);
    if (!schedule) return null;
    return { text: statusText(type, schedule), urgency: urgency(type === 'Service' ? schedule.service : schedule.cof) };
  };
  const chosenSchedule = curveNumber !== '' && line !== '' ? scheduleOf(section, curveNumber, line) : undefined;
  const stationsQuery = useStations(section);
  const lookupStations = useStationLookup();
  // Filling stations from an HKM choice waits for the station list; a later choice wins.
  const stationFill = useRef(0);
  const cancelStationFill = () => {
    stationFill.current += 1;
    return stationFill.current;
  };

  const put = (name: TextField, value: string) =>
    // After a failed submit, errors follow every change, including the cascaded ones.
    setValue(name, value, { shouldDirty: true, shouldValidate: isSubmitted });

  // What a choice changes besides its own field: the picks that depended on the old one.
  const chooseDivision = (value: string) => {
    cancelStationFill();
    put('section', '');
    put('curveNumber', '');
    put('railwayEngineer', '');
    setHkmCode('');
    put('line', isSingleLineDivision(value) ? SINGLE_LINE : '');
  };

  const chooseSection = () => {
    cancelStationFill();
    put('curveNumber', '');
    put('railwayEngineer', '');
    setHkmCode('');
  };

  const chooseSse = () => setHkmCode('');

  const fillStations = async (curve: Curve, run: number) => {
    let stations: readonly Station[] = NO_STATIONS;
    try {
      stations = await lookupStations(curve.section);
    } catch {
      // Offline or no list: the curve's own station text is still worth keeping (as Manual).
    }
    if (stationFill.current !== run) return;
    const modes: Partial<Record<StationName, StationMode>> = {};
    for (const name of STATIONS) {
      const text = (name === 'station1' ? curve.station1 : curve.station2)?.trim() ?? '';
      const match = matchStation(stations, text);
      if (match) {
        modes[name] = 'list';
        put(name, match.stationName);
      } else {
        if (text !== '') modes[name] = 'manual';
        put(name, text);
      }
    }
    setStationModes((current) => ({ ...current, ...modes }));
  };

  /** Everything a known curve tells: its place, line, engineer and stations. */
  const fillFromCurve = (curve: Curve) => {
    const run = cancelStationFill();
    setHkmCode(curve.hkmCode === null ? '' : String(curve.hkmCode));
    put('divisionRailway', curve.divisionRailway);
    put('section', curve.section);
    put('curveNumber', curve.curveNumber);
    const line = curveLine(curve) ?? (isSingleLineDivision(curve.divisionRailway) ? SINGLE_LINE : getValues('line'));
    put('line', line);
    // An engineer from the previous curve would be wrong for this one, so no SSE means none.
    put('railwayEngineer', curveEngineer(curve) ?? '');
    void fillStations(curve, run);
  };

  const chooseHkm = (code: string) => {
    const curve = findCurveByHkm(curves, code);
    if (curve === undefined) {
      cancelStationFill();
      setHkmCode(code);
      return;
    }
    fillFromCurve(curve);
  };

  // The due list's curve: once the curve list is there, fill in the rest of what it knows.
  const presetFilled = useRef(false);
  useEffect(() => {
    if (!preset || presetFilled.current || curves.length === 0) return;
    presetFilled.current = true;
    const curve = curvesNumbered(curves, preset.divisionRailway, preset.section, preset.curveNumber).find((c) => (curveLine(c) ?? c.line) === preset.line);
    // Once, when the curve list arrives (from the network or the phone's copy): the form's
    // values live in react-hook-form, outside React state, and the stations load on their own.
    // eslint-disable-next-line react-hooks/set-state-in-effect -- see above
    if (curve) fillFromCurve(curve);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- runs once, when the curves arrive
  }, [curves, preset]);

  const chooseCurveNumber = (value: string) => {
    const matches = curvesNumbered(curves, division, section, value);
    // The curve's own line wins when it has exactly one; a number laid on two lines keeps the user's.
    const lines = [...new Set(matches.map(curveLine).filter((l) => l !== null))];
    if (lines.length === 1 && lines[0] !== undefined) put('line', lines[0]);
    const chosenLine = getValues('line');
    const curve = matches.find((c) => curveLine(c) === chosenLine) ?? matches[0];
    const engineer = curve ? curveEngineer(curve) : null;
    if (engineer !== null && getValues('railwayEngineer').trim() === '') put('railwayEngineer', engineer);
    // A quick-select code that names another curve would now be misleading.
    if (hkmCode !== '' && findCurveByHkm(curves, hkmCode)?.curveNumber !== value) {
      cancelStationFill();
      setHkmCode('');
    }
  };

  const chooseStationMode = (name: StationName, mode: StationMode) => {
    if (stationModes[name] === mode) return;
    cancelStationFill();
    setStationModes({ ...stationModes, [name]: mode });
    put(name, '');
  };

  const save = (entry: InspectionEntry) => {
    writeEntry(toSessionEntry(entry, readEntry(), newSubmissionId));
    onSaved();
  };

  const hasSection = division !== '' && section !== '';
  const stationList = {
    section,
    stations: stationsQuery.data ?? NO_STATIONS,
    isLoading: stationsQuery.isLoading,
    isError: stationsQuery.isError,
  };

  return (
    <form noValidate onSubmit={handleSubmit(save)} className="flex flex-col gap-4">
      <CurvesStatus query={curvesQuery} />

      <Card className="flex flex-col gap-4">
        <CardTitle>
          <Trans>Curve Details</Trans>
        </CardTitle>
        <FieldShell id="date" label={t`Date`}>
          <Input id="date" type="text" value={initial.date} readOnly className="bg-slate-100" />
        </FieldShell>
        <FormSelect
          control={control}
          name="divisionRailway"
          label={t`Division/Railway`}
          required
          options={DIVISION_OPTIONS}
          placeholder={t`Select division`}
          onChosen={chooseDivision}
        />
        <FormSelect
          control={control}
          name="section"
          label={t`Section`}
          required
          options={sectionOptions(curves, division)}
          placeholder={division === '' ? t`Select a division first` : t`Select section`}
          disabled={division === ''}
          onChosen={chooseSection}
        />
        {hasSection ? (
          <FormSelect
            control={control}
            name="railwayEngineer"
            label={t`SSE (Railway Engineer)`}
            options={sseOptions(curves, division, section)}
            placeholder={t`Select SSE (optional)`}
            onChosen={chooseSse}
          />
        ) : null}

        <SelectField
          id="hkmCode"
          label={t`HKM Code`}
          value={hkmCode}
          onChange={chooseHkm}
          options={hkmOptions(curves, { division, section, sse }, statusOf)}
          placeholder={t`Select HKM code (optional)`}
          disabled={curves.length === 0}
          hint={t`Fills in the curve details for you.`}
        />

        <FormSelect
          control={control}
          name="curveNumber"
          label={t`Curve Number`}
          required
          options={curveNumberOptions(curves, division, section, statusOf)}
          placeholder={section === '' ? t`Select a section first` : t`Select curve number`}
          disabled={section === ''}
          onChosen={chooseCurveNumber}
        />
        <FormSelect control={control} name="line" label={t`Line`} required options={lineOptions(i18n)} placeholder={t`Select line`} />
        {chosenSchedule ? <CurveDueNote type={type} schedule={chosenSchedule} /> : null}
      </Card>

      <Card className="flex flex-col gap-4">
        <CardTitle>
          <Trans>Stations</Trans>
        </CardTitle>
        {STATIONS.map((name) => (
          <StationField
            key={name}
            control={control}
            name={name}
            label={name === 'station1' ? t`Station 1` : t`Station 2`}
            mode={stationModes[name]}
            onMode={(mode) => chooseStationMode(name, mode)}
            list={stationList}
          />
        ))}
      </Card>

      {type === 'CoF' ? (
        <Card className="flex flex-col gap-4">
          <CardTitle>
            <Trans>CoF Reading</Trans>
          </CardTitle>
          {/* Every keystroke or paste is forced into 0.XX. */}
          <FormInput
            control={control}
            name="cofValue"
            label={t`CoF Value`}
            required
            hint={t`Form 0.XX, for example 0.25.`}
            type="text"
            inputMode="decimal"
            autoComplete="off"
            mask={maskCofValue}
          />
          <FormSelect control={control} name="location" label={t`Location`} options={locationOptions(i18n)} placeholder={t`Select location`} />
          {POSITION_FIELDS.map(({ name, label }) => (
            <FormInput key={name} control={control} name={name} label={i18n._(label)} type="text" autoComplete="off" />
          ))}
        </Card>
      ) : null}

      <Button type="submit" size="lg" className="w-full">
        {type === 'Service' ? t`Log Service Details` : t`Continue to Camera`}
      </Button>
    </form>
  );
}
