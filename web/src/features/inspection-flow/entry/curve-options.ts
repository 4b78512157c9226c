/**
 * What the entry form's pickers offer, derived from the loaded curve and station lists.
 * Pure functions: the entry form's rules (docs/architecture.md, "The inspection flow's rules") stay readable and testable apart from React.
 */
import { t } from '@lingui/core/macro';
import type { Line } from '../../../../../common/constants.js';
import { lineFromCode, SINGLE_LINE_DIVISIONS } from '../../../../../common/rules/line-codes.js';
import type { Curve } from '../../../../../common/schemas/curve.js';
import type { Station } from '../../../../../common/schemas/reference.js';
import type { SelectOption } from '../../../components/ui/filter-select.js';
import { lineLabel } from '../value-labels.js';

/** A curve's due state for the form's kind of visit ('Service overdue 6 d'), or null when unknown. */
export type CurveStatusOf = (curve: Curve) => { text: string; urgency: number } | null;
const NO_STATUS: CurveStatusOf = () => null;

/** Curve records carry the literal 'SSE' where the engineer is not known yet. */
export const SSE_PLACEHOLDER = 'SSE';

const byText = (a: string, b: string) => a.localeCompare(b, 'en', { numeric: true, sensitivity: 'base' });

function distinct(values: Iterable<string>): string[] {
  return [...new Set(values)];
}

/** The curve's engineer, or null when the record names none (empty or the placeholder). */
export function curveEngineer(curve: Curve): string | null {
  const sse = curve.sse?.trim() ?? '';
  return sse === '' || sse === SSE_PLACEHOLDER ? null : sse;
}

/** Records code lines as UP/DN/SL or spell them out; both read as the form's Up/Down/Single. */
export function curveLine(curve: Curve): Line | null {
  return lineFromCode(curve.line);
}

export function isSingleLineDivision(division: string): boolean {
  return SINGLE_LINE_DIVISIONS.includes(division);
}

function inSection(curves: readonly Curve[], division: string, section: string): Curve[] {
  return curves.filter((c) => c.divisionRailway === division && c.section === section);
}

export function sectionOptions(curves: readonly Curve[], division: string): SelectOption[] {
  if (division === '') return [];
  return distinct(curves.filter((c) => c.divisionRailway === division).map((c) => c.section))
    .filter((s) => s.trim() !== '')
    .sort(byText)
    .map((s) => ({ value: s, label: s }));
}

export function sseOptions(curves: readonly Curve[], division: string, section: string): SelectOption[] {
  if (division === '' || section === '') return [];
  return distinct(
    inSection(curves, division, section)
      .map(curveEngineer)
      .filter((s) => s !== null),
  )
    .sort(byText)
    .map((s) => ({ value: s, label: s }));
}

/**
 * HKM codes narrowed by whatever is already chosen (division, section, SSE); with nothing
 * chosen every loaded curve is offered, since the quick select can fill the division itself.
 */
export function hkmOptions(
  curves: readonly Curve[],
  { division, section, sse }: { division: string; section: string; sse: string },
  statusOf: CurveStatusOf = NO_STATUS,
): SelectOption[] {
  return curves
    .filter(
      (c) =>
        c.hkmCode !== null &&
        (division === '' || c.divisionRailway === division) &&
        (section === '' || c.section === section) &&
        (sse === '' || curveEngineer(c) === sse),
    )
    .sort((a, b) => (a.hkmCode ?? 0) - (b.hkmCode ?? 0))
    .map((c) => {
      const status = statusOf(c);
      const code = String(c.hkmCode);
      const curveNumber = c.curveNumber;
      // The line as the technician reads it; a code the product does not know, as recorded.
      const line = lineLabel(curveLine(c) ?? c.line);
      const label = t`${code} · Curve ${curveNumber} · ${line}`;
      return { value: code, label: status ? `${label} · ${status.text}` : label };
    });
}

export function findCurveByHkm(curves: readonly Curve[], code: string): Curve | undefined {
  return curves.find((c) => c.hkmCode !== null && String(c.hkmCode) === code);
}

/**
 * One option per curve number; a number laid on two lines shows both ('12 · Up/Down'), and the
 * due state of its most urgent line ('12 · Up/Down · Service overdue 6 d').
 */
export function curveNumberOptions(curves: readonly Curve[], division: string, section: string, statusOf: CurveStatusOf = NO_STATUS): SelectOption[] {
  if (division === '' || section === '') return [];
  const lines = new Map<string, string[]>();
  const statuses = new Map<string, { text: string; urgency: number }>();
  for (const curve of inSection(curves, division, section)) {
    const list = lines.get(curve.curveNumber) ?? [];
    lines.set(curve.curveNumber, distinct([...list, curveLine(curve) ?? curve.line]));
    const status = statusOf(curve);
    const known = statuses.get(curve.curveNumber);
    if (status && (!known || status.urgency < known.urgency)) statuses.set(curve.curveNumber, status);
  }
  return [...lines.keys()].sort(byText).map((number) => ({
    value: number,
    label: [number, (lines.get(number) ?? []).filter(Boolean).map((l) => lineLabel(l)).join('/'), statuses.get(number)?.text ?? ''].filter(Boolean).join(' · '),
  }));
}

export function curvesNumbered(curves: readonly Curve[], division: string, section: string, curveNumber: string): Curve[] {
  return inSection(curves, division, section).filter((c) => c.curveNumber === curveNumber);
}

/** A curve's station text names a listed station by its code or by its name. */
export function matchStation(stations: readonly Station[], text: string | null): Station | undefined {
  const wanted = text?.trim().toLowerCase() ?? '';
  if (wanted === '') return undefined;
  return stations.find((s) => s.stationCode.trim().toLowerCase() === wanted || s.stationName.trim().toLowerCase() === wanted);
}
