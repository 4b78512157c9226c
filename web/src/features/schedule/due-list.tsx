import { useState } from 'react';
import { Link } from 'react-router';
import { lineFromCode } from '../../../../common/rules/line-codes.js';
import { Label } from '../../components/ui/label.js';
import { cn } from '../../lib/cn.js';
import { readItem, writeItem } from '../../lib/safe-storage.js';
import { DUE_LIST_SECTION_KEY } from '../../lib/storage-keys.js';
import { useQuery } from '@tanstack/react-query';
import { ACTION_KIND_TEXT } from '../../../../common/rules/follow-up-actions.js';
import { useSignedInUser } from '../auth/index.js';
import { type DueItem, dueItems, statusText } from './curve-schedule.js';
import { type DueAction, dueActions, openActionsQuery } from './open-actions.js';
import { useCurveSchedules } from './use-curve-schedules.js';

const SHOWN = 6;
const RECENT = '';

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
  const reported = ageDays <= 0 ? 'reported today' : `reported ${ageDays} d ago`;
  if (daysLeft < 0) return `${reported}, overdue by ${-daysLeft} d`;
  return daysLeft === 0 ? `${reported}, due today` : `${reported}, due in ${daysLeft} d`;
}

function badgeClasses(item: DueItem): string {
  const state = item.kind === 'Service' ? item.schedule.service.state : item.schedule.cof.state;
  if (state === 'overdue') return 'bg-red-100 text-red-900 border-red-700';
  if (state === 'due-soon' || (item.kind === 'CoF' && item.schedule.cof.high)) return 'bg-amber-100 text-amber-950 border-amber-700';
  return 'bg-slate-100 text-slate-900 border-slate-500';
}

/**
 * /purpose: "Due in your sections": the curves of the sections the technician worked in
 * lately (or a section they choose) that need a visit, the most overdue first. A tap opens
 * the right flow with the curve filled in. Works offline from the schedule kept on the phone.
 */
export function DueList() {
  const user = useSignedInUser();
  const { schedules, recentSections, isPending, today, cofAlertThreshold, waiting } = useCurveSchedules();
  const openActions = useQuery(openActionsQuery(user.divisionAccess));
  const [choice, setChoice] = useState(() => readItem('local', DUE_LIST_SECTION_KEY) ?? RECENT);
  if (isPending || schedules === undefined) {
    return isPending ? (
      <p role="status" className="text-base text-slate-700">
        Loading the due list...
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
  const choose = (value: string) => {
    setChoice(value);
    writeItem('local', DUE_LIST_SECTION_KEY, value);
  };

  return (
    <section aria-labelledby="due-list-title" className="flex flex-col gap-3 rounded-xl border-2 border-slate-300 bg-white p-4 shadow-sm">
      <h2 id="due-list-title" className="text-lg font-bold text-slate-900">
        Due in your sections
      </h2>
      <div>
        <Label htmlFor="due-list-section">Section</Label>
        <select
          id="due-list-section"
          value={chosen}
          onChange={(event) => choose(event.target.value)}
          className="mt-1 block min-h-12 w-full rounded-lg border-2 border-slate-500 bg-white px-3 text-base text-slate-900 focus:border-brand-700"
        >
          <option value={RECENT}>{recentSections.length > 0 ? `Your recent sections (${recentSections.join(', ')})` : 'Your recent sections'}</option>
          {allSections.map((section) => (
            <option key={section} value={section}>
              {section}
            </option>
          ))}
        </select>
      </div>
      {sections.size === 0 ? (
        <p className="text-base text-slate-800">No visits of yours in the last 30 days: choose a section to see what is due.</p>
      ) : items.length === 0 && actions.length === 0 ? (
        <p className="text-base text-slate-800">Nothing is due in {chosen === RECENT ? 'your recent sections' : chosen}.</p>
      ) : (
        <>
          {actions.length > 0 ? (
            <ul className="flex flex-col gap-2" aria-label="Faults to fix">
              {actions.slice(0, SHOWN).map((due) => {
                const { action } = due;
                return (
                  <li key={action.id}>
                    <Link
                      to={dataEntryLink(action.kind === 'cof-high' ? 'CoF' : 'Service', action)}
                      className="flex min-h-14 flex-col gap-1 rounded-lg border-2 border-red-700 bg-red-50 p-3 hover:bg-red-100"
                    >
                      <span className="text-base font-bold text-slate-900">
                        {action.reported === ACTION_KIND_TEXT[action.kind] ? action.reported : `${ACTION_KIND_TEXT[action.kind]}: ${action.reported}`}
                      </span>
                      <span className="text-sm text-slate-800">
                        Curve {action.curveNumber} · {action.line} · {action.section}
                      </span>
                      <span className={cn('text-sm font-semibold', due.daysLeft < 0 ? 'text-red-800' : 'text-slate-800')}>{actionAgeText(due)}</span>
                    </Link>
                  </li>
                );
              })}
              {actions.length > SHOWN ? <li className="text-sm text-slate-700">{`and ${actions.length - SHOWN} more faults`}</li> : null}
            </ul>
          ) : null}
          {items.length > 0 ? (
            <ul className="flex flex-col gap-2" aria-label="Curves due">
              {items.slice(0, SHOWN).map((item) => {
                const { entry } = item.schedule;
                const other = item.kind === 'Service' ? 'CoF' : 'Service';
                return (
                  <li key={`${entry.section}|${entry.curveNumber}|${entry.line}`}>
                    <Link
                      to={dataEntryLink(item.kind, item.schedule.entry)}
                      className="flex min-h-14 flex-col gap-1 rounded-lg border-2 border-slate-300 p-3 hover:border-brand-700 hover:bg-brand-50"
                    >
                      <span className="flex flex-wrap items-center justify-between gap-2">
                        <span className="text-base font-bold text-slate-900">
                          Curve {entry.curveNumber} · {lineFromCode(entry.line) ?? entry.line}
                          <span className="font-normal text-slate-700"> · {entry.section}</span>
                        </span>
                        <span className={cn('rounded-full border px-2 py-0.5 text-sm font-semibold', badgeClasses(item))}>{statusText(item.kind, item.schedule)}</span>
                      </span>
                      <span className="text-sm text-slate-700">{statusText(other, item.schedule)}</span>
                    </Link>
                  </li>
                );
              })}
              {items.length > SHOWN ? <li className="text-sm text-slate-700">{`and ${items.length - SHOWN} more`}</li> : null}
            </ul>
          ) : null}
        </>
      )}
    </section>
  );
}
