import type { MessageDescriptor } from '@lingui/core';
import { msg, t } from '@lingui/core/macro';
import { useLingui } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import { useState } from 'react';
import { Link } from 'react-router';
import { lineFromCode } from '../../../../common/rules/line-codes.js';
import { Label } from '../../components/ui/label.js';
import { cn } from '../../lib/cn.js';
import { lineLabel } from '../../lib/value-labels.js';
import { readItem, writeItem } from '../../lib/safe-storage.js';
import { DUE_LIST_SECTION_KEY } from '../../lib/storage-keys.js';
import { i18n } from '../../lib/i18n.js';
import { useQuery } from '@tanstack/react-query';
import { ACTION_KIND_TEXT, type ActionKind } from '../../../../common/rules/follow-up-actions.js';
import { useSignedInUser } from '../auth/index.js';
import { COF_TYPE, type DueItem, dueItems, SERVICE_TYPE, statusText } from './curve-schedule.js';
import { type DueAction, dueActions, openActionsQuery } from './open-actions.js';
import { useCurveSchedules } from './use-curve-schedules.js';

const SHOWN = 6;
const RECENT = '';

/** common/rules/follow-up-actions.ts's ACTION_KIND_TEXT (stored in English as what was reported) in the reader's language. */
const ACTION_KIND_LABELS: Readonly<Record<ActionKind, MessageDescriptor>> = {
  'machine-not-working': msg`Machine not working`,
  'part-stolen': msg`Part stolen`,
  'part-broken': msg`Part broken`,
  'cof-high': msg`CoF high`,
};

/** The fault and what was reported ("Part broken: Pump Assembly – Gear pump"); only the kind's own name is translated. */
function faultText(kind: ActionKind, reported: string): string {
  const label = i18n._(ACTION_KIND_LABELS[kind]);
  return reported === ACTION_KIND_TEXT[kind] ? label : `${label}: ${reported}`;
}

function dataEntryLink(type: 'Service' | 'CoF', curve: { divisionRailway: string; section: string; curveNumber: string; line: string }): string {
  const params = new URLSearchParams({
    type,
    division: curve.divisionRailway,
    section: curve.section,
    curve: curve.curveNumber,
    line: lineFromCode(curve.line) ?? curve.line,
  });
  return `/data-entry?${params.toString()}`;
}

/** "reported 3 d ago, due in 4 d", "reported 9 d ago, overdue by 2 d". */
function actionAgeText({ ageDays, daysLeft }: DueAction): string {
  const reported = ageDays <= 0 ? t`reported today` : t`reported ${ageDays} d ago`;
  const daysOver = -daysLeft;
  if (daysLeft < 0) return t`${reported}, overdue by ${daysOver} d`;
  return daysLeft === 0 ? t`${reported}, due today` : t`${reported}, due in ${daysLeft} d`;
}

function badgeClasses(item: DueItem): string {
  const state = item.kind === 'Service' ? item.schedule.service.state : item.schedule.cof.state;
  if (state === 'overdue') return cn('bg-red-100 text-red-900 border-red-700');
  if (state === 'due-soon' || (item.kind === 'CoF' && item.schedule.cof.high)) return cn('bg-amber-100 text-amber-950 border-amber-700');
  return cn('bg-slate-100 text-slate-900 border-slate-500');
}

/**
 * /purpose: "Due in your sections": the curves of the sections the technician worked in
 * lately (or a section they choose) that need a visit, the most overdue first. A tap opens
 * the right flow with the curve filled in. Works offline from the schedule kept on the phone.
 */
export function DueList() {
  // Re-renders in a newly chosen language: the texts below are read at render.
  useLingui();
  const user = useSignedInUser();
  const { schedules, recentSections, isPending, today, cofAlertThreshold, waiting } = useCurveSchedules();
  const openActions = useQuery(openActionsQuery(user.divisionAccess));
  const [choice, setChoice] = useState(() => readItem('local', DUE_LIST_SECTION_KEY) ?? RECENT);
  if (isPending || schedules === undefined) {
    return isPending ? (
      <p role="status" className="text-base text-slate-700">
        <Trans>Loading the due list...</Trans>
      </p>
    ) : null;
  }
  const allSections = [...new Set([...schedules.values()].map((s) => s.entry.section))].sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
  const chosen = choice !== RECENT && allSections.includes(choice) ? choice : RECENT;
  const sections = new Set(chosen === RECENT ? recentSections : [chosen]);
  const items = dueItems(schedules.values(), sections);
  // Faults reported and not fixed yet come first: a machine without grease matters before a visit due.
  const actions =
    openActions.data && today !== null && cofAlertThreshold !== null ? dueActions(openActions.data.actions, waiting, sections, today, cofAlertThreshold) : [];
  const recentList = recentSections.join(', ');
  const moreFaults = actions.length - SHOWN;
  const moreCurves = items.length - SHOWN;
  const choose = (value: string) => {
    setChoice(value);
    writeItem('local', DUE_LIST_SECTION_KEY, value);
  };

  return (
    <section aria-labelledby="due-list-title" className="flex flex-col gap-3 rounded-xl border-2 border-slate-300 bg-white p-4 shadow-sm">
      <h2 id="due-list-title" className="text-lg font-bold text-slate-900">
        <Trans>Due in your sections</Trans>
      </h2>
      <div>
        <Label htmlFor="due-list-section">
          <Trans>Section</Trans>
        </Label>
        <select
          id="due-list-section"
          value={chosen}
          onChange={(event) => choose(event.target.value)}
          className="mt-1 block min-h-12 w-full rounded-lg border-2 border-slate-500 bg-white px-3 text-base text-slate-900 focus:border-brand-700"
        >
          <option value={RECENT}>{recentSections.length > 0 ? t`Your recent sections (${recentList})` : t`Your recent sections`}</option>
          {allSections.map((section) => (
            <option key={section} value={section}>
              {section}
            </option>
          ))}
        </select>
      </div>
      {sections.size === 0 ? (
        <p className="text-base text-slate-800">
          <Trans>No visits of yours in the last 30 days: choose a section to see what is due.</Trans>
        </p>
      ) : items.length === 0 && actions.length === 0 ? (
        <p className="text-base text-slate-800">{chosen === RECENT ? t`Nothing is due in your recent sections.` : t`Nothing is due in ${chosen}.`}</p>
      ) : (
        <>
          {actions.length > 0 ? (
            <ul className="flex flex-col gap-2" aria-label={t`Faults to fix`}>
              {actions.slice(0, SHOWN).map((due) => {
                const { action } = due;
                const curve = action.curveNumber;
                const line = lineLabel(action.line);
                const section = action.section;
                return (
                  <li key={action.id}>
                    <Link
                      to={dataEntryLink(action.kind === 'cof-high' ? 'CoF' : 'Service', action)}
                      className="flex min-h-14 flex-col gap-1 rounded-lg border-2 border-red-700 bg-red-50 p-3 hover:bg-red-100"
                    >
                      <span className="text-base font-bold text-slate-900">
                        {faultText(action.kind, action.reported)}
                      </span>
                      <span className="text-sm text-slate-800">
                        <Trans>
                          Curve {curve} · {line} · {section}
                        </Trans>
                      </span>
                      <span className={cn('text-sm font-semibold', due.daysLeft < 0 ? 'text-red-800' : 'text-slate-800')}>{actionAgeText(due)}</span>
                    </Link>
                  </li>
                );
              })}
              {actions.length > SHOWN ? <li className="text-sm text-slate-700">{t`and ${moreFaults} more faults`}</li> : null}
            </ul>
          ) : null}
          {items.length > 0 ? (
            <ul className="flex flex-col gap-2" aria-label={t`Curves due`}>
              {items.slice(0, SHOWN).map((item) => {
                const { entry } = item.schedule;
                const other = item.kind === 'Service' ? COF_TYPE : SERVICE_TYPE;
                const curve = entry.curveNumber;
                const line = lineLabel(lineFromCode(entry.line) ?? entry.line);
                return (
                  <li key={`${entry.section}|${entry.curveNumber}|${entry.line}`}>
                    <Link
                      to={dataEntryLink(item.kind, item.schedule.entry)}
                      className="flex min-h-14 flex-col gap-1 rounded-lg border-2 border-slate-300 p-3 hover:border-brand-700 hover:bg-brand-50"
                    >
                      <span className="flex flex-wrap items-center justify-between gap-2">
                        <span className="text-base font-bold text-slate-900">
                          <Trans>
                            Curve {curve} · {line}
                          </Trans>
                          <span className="font-normal text-slate-700"> · {entry.section}</span>
                        </span>
                        <span className={cn('rounded-full border px-2 py-0.5 text-sm font-semibold', badgeClasses(item))}>{statusText(item.kind, item.schedule)}</span>
                      </span>
                      <span className="text-sm text-slate-700">{statusText(other, item.schedule)}</span>
                    </Link>
                  </li>
                );
              })}
              {items.length > SHOWN ? <li className="text-sm text-slate-700">{t`and ${moreCurves} more`}</li> : null}
            </ul>
          ) : null}
        </>
      )}
    </section>
  );
}
