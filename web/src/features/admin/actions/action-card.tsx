import { plural } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { Link } from 'react-router';
import { daysBetween } from '../../../../../common/rules/dates.js';
import { ACTION_KIND_TEXT } from '../../../../../common/rules/follow-up-actions.js';
import type { Action, ActionEvent } from '../../../../../common/schemas/actions.js';
import { Button, buttonClasses } from '../../../components/ui/button.js';
import { FieldError } from '../../../components/ui/label.js';
import { toast } from '../../../components/ui/toast-store.js';
import { cn } from '../../../lib/cn.js';
import { submittedText, visitDateText } from '../../../lib/date-text.js';
import { lineLabel } from '../../../lib/value-labels.js';
import { RecordImage } from '../records/index.js';
import { EVENT_LABELS, kindText, SEVERITY_LABELS, STATE_LABELS, titleOf } from './action-texts.js';
import { changeActionState, invalidateActions, noteErrorOf, photoUrlOf, recordViewSearch, type StateChange, thumbnailUrlOf } from './actions-api.js';

const badgeClass = 'inline-flex shrink-0 items-center rounded-full px-2.5 py-0.5 text-sm font-bold';

function StateBadge({ state }: { state: Action['state'] }) {
  const { i18n } = useLingui();
  return <span className={cn(badgeClass, state === 'open' ? 'bg-sky-100 text-sky-900' : 'bg-slate-200 text-slate-900')}>{i18n._(STATE_LABELS[state])}</span>;
}

function SeverityBadge({ severity }: { severity: Action['severity'] }) {
  const { i18n, t } = useLingui();
  const level = i18n._(SEVERITY_LABELS[severity]);
  return (
    <span className={cn(badgeClass, severity === 'high' ? 'bg-red-100 text-red-900' : 'bg-amber-100 text-amber-900')}>
      {t`Severity: ${level}`}
    </span>
  );
}

/** When it is due, or by how much it is late, or when it closed and how long the fix took. */
function TimingLine({ action, asOf }: { action: Action; asOf: string }) {
  const { t } = useLingui();
  if (action.state === 'closed') {
    const closedOn = visitDateText(action.closedOn ?? asOf);
    const days = action.ageDays;
    return (
      <p className="text-sm font-semibold text-slate-900">
        {t`Closed ${closedOn}`} · {days === 0 ? t`fixed the same day` : t`took ${days} d`}
      </p>
    );
  }
  if (action.overdue) {
    const days = daysBetween(action.dueDate, asOf);
    return <p className="text-sm font-bold text-red-800">{t`overdue by ${days} d`}</p>;
  }
  const dueDate = visitDateText(action.dueDate);
  return <p className="text-sm text-slate-800">{t`due ${dueDate}`}</p>;
}

/**
 * A record the action names (the visit that opened it, or the one that closed it): its
 * thumbnail, and the ways to see it whole. Admins open it in the records view; the full photo
 * is for anyone who may read the record (a Client's own division).
 */
function RecordBox({ title, recordId, isAdmin }: { title: string; recordId: string | null; isAdmin: boolean }) {
  const { t } = useLingui();
  return (
    <div className="flex flex-col gap-2">
      <h4 className="text-base font-bold text-slate-900">{title}</h4>
      {recordId === null ? (
        <p className="text-sm text-slate-800">{t`The record was deleted.`}</p>
      ) : (
        <>
          <RecordImage key={recordId} src={thumbnailUrlOf(recordId)} alt={t`Photo of ${recordId}`} lazy className="max-w-sm" />
          <p className="font-mono text-sm break-all text-slate-900">{recordId}</p>
          <div className="flex flex-wrap gap-2">
            {isAdmin ? (
              <Link to={recordViewSearch(recordId)} className={buttonClasses('outline', 'sm')} aria-label={t`Open record ${recordId}`}>
                {t`Open record`}
              </Link>
            ) : null}
            <a
              href={photoUrlOf(recordId)}
              target="_blank"
              rel="noopener"
              className={buttonClasses('outline', 'sm')}
              aria-label={t`Full photo ${recordId}`}
            >
              {t`Full photo`}
            </a>
          </div>
        </>
      )}
    </div>
  );
}

function HistoryItem({ event }: { event: ActionEvent }) {
  const { i18n, t } = useLingui();
  // A person's name and ID are data, shown as stored.
  const { recordId } = event;
  const recordDate = event.recordDate === null ? null : visitDateText(event.recordDate);
  const who = event.actorName !== null ? `${event.actorName}${event.actorEmployeeId ? ` (${event.actorEmployeeId})` : ''}` : (event.actorEmployeeId ?? t`Filed automatically`);
  return (
    <li className="border-l-4 border-slate-300 pl-3">
      <p className="text-sm">
        <span className="font-bold text-slate-900">{i18n._(EVENT_LABELS[event.event])}</span>
        <span className="text-slate-800">{` · ${submittedText(event.at)} · ${who}`}</span>
      </p>
      {recordId !== null ? (
        <p className="font-mono text-sm wrap-anywhere text-slate-800">{recordDate === null ? t`Record ${recordId}` : t`Record ${recordId} of ${recordDate}`}</p>
      ) : null}
      {event.note !== null ? <p className="text-sm break-words text-slate-900">{event.note}</p> : null}
    </li>
  );
}

/** The Admin's Close or Reopen: a required note, sent only when there is one; the server's refusal shows beside it. */
function NoteForm({ action, change, onDone }: { action: Action; change: StateChange; onDone: () => void }) {
  const { t } = useLingui();
  const noteId = useId();
  const titleId = useId();
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | undefined>(undefined);
  const queryClient = useQueryClient();
  const closing = change === 'close';
  const mutation = useMutation({
    mutationFn: changeActionState,
    onSuccess: async (changed) => {
      toast({ title: closing ? t`Action Closed` : t`Action Reopened`, description: titleOf(changed) });
      onDone();
      await invalidateActions(queryClient);
    },
    onError: (failure) => setError(noteErrorOf(failure, t`Failed to change the action`)),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = note.trim();
    if (trimmed === '') {
      setError(t`A note is required: say why.`);
      return;
    }
    setError(undefined);
    mutation.mutate({ id: action.id, change, note: trimmed });
  };
  const hintId = `${noteId}-hint`;
  const errorId = `${noteId}-error`;
  return (
    <form noValidate onSubmit={submit} aria-labelledby={titleId} className="flex flex-col gap-2 rounded-lg border-2 border-slate-300 bg-slate-50 p-3">
      <h4 id={titleId} className="text-base font-bold text-slate-900">
        {closing ? t`Close this action` : t`Reopen this action`}
      </h4>
      <label htmlFor={noteId} className="text-base font-semibold text-slate-900">
        {t`Note (why)`}
      </label>
      <textarea
        id={noteId}
        value={note}
        rows={3}
        maxLength={1000}
        required
        aria-invalid={error !== undefined || undefined}
        aria-describedby={error !== undefined ? `${hintId} ${errorId}` : hintId}
        onChange={(e) => setNote(e.target.value)}
        className={cn(
          'block w-full rounded-lg border-2 bg-white px-3 py-2 text-base text-slate-900',
          error !== undefined ? 'border-red-700' : 'border-slate-400 focus:border-brand-700',
        )}
      />
      <p id={hintId} className="text-sm text-slate-700">
        {t`Required. Say why: it is kept in the history and the audit trail.`}
      </p>
      <FieldError id={errorId} message={error} />
      <div className="grid grid-cols-2 gap-2">
        <Button variant="outline" size="sm" onClick={onDone} disabled={mutation.isPending}>
          {t`Cancel`}
        </Button>
        <Button type="submit" variant={closing ? 'primary' : 'outline'} size="sm" disabled={mutation.isPending} aria-busy={mutation.isPending || undefined}>
          {mutation.isPending ? (closing ? t`Closing...` : t`Reopening...`) : closing ? t`Close with Note` : t`Reopen with Note`}
        </Button>
      </div>
    </form>
  );
}

/** What an expanded card shows: the records behind the action, its history, and an Admin's Close or Reopen. */
function ActionDetails({ action, isAdmin }: { action: Action; isAdmin: boolean }) {
  const { t } = useLingui();
  const [changing, setChanging] = useState(false);
  const change: StateChange = action.state === 'open' ? 'close' : 'reopen';
  const closed = action.state === 'closed';
  // An Admin's close names the Admin; a visit's names its record (null once that record is deleted).
  const closedByAdmin = closed && action.closedByEmployeeId !== null;
  const closedBy = action.closedByEmployeeId ?? '';
  const note =
    closed && action.closeNote !== null ? (
      <p className="text-sm break-words text-slate-900">
        <span className="font-semibold">{t`Note:`} </span>
        {action.closeNote}
      </p>
    ) : null;
  return (
    <div className="flex flex-col gap-4 border-t border-slate-200 pt-3">
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3">
        <RecordBox title={t`Opening record`} recordId={action.openedByRecordId} isAdmin={isAdmin} />
        {closed ? (
          <div className="flex flex-col gap-2">
            {closedByAdmin ? (
              <h4 className="text-base font-bold text-slate-900">{t`Closed by ${closedBy} without a visit`}</h4>
            ) : (
              <RecordBox title={t`Closing record`} recordId={action.closedByRecordId} isAdmin={isAdmin} />
            )}
            {note}
          </div>
        ) : null}
        {/* Beside the photos on a wide screen; under them, across, where two share a row. */}
        <div className={cn(closed && 'sm:col-span-2 lg:col-span-1')}>
          <h4 className="text-base font-bold text-slate-900">{t`History`}</h4>
          <ol aria-label={t`History`} className="mt-2 flex flex-col gap-2">
            {action.history.map((event, index) => (
              <HistoryItem key={`${event.at}-${index}`} event={event} />
            ))}
          </ol>
        </div>
      </div>
      {isAdmin ? (
        changing ? (
          <NoteForm key={change} action={action} change={change} onDone={() => setChanging(false)} />
        ) : (
          <Button variant={change === 'close' ? 'primary' : 'outline'} onClick={() => setChanging(true)} className="self-start">
            {change === 'close' ? t`Close Action` : t`Reopen Action`}
          </Button>
        )
      ) : null}
    </div>
  );
}

/**
 * One action as a card: what was found where, how old it is and when it is due; opening it
 * shows the photos, the history and (Admins) Close or Reopen. Photos load only when opened.
 */
export function ActionCard({
  action,
  asOf,
  isAdmin,
  open,
  onToggle,
}: {
  action: Action;
  asOf: string;
  isAdmin: boolean;
  /** Opened, the card takes a whole row of the grid (the list decides), so photos and history have room. */
  open: boolean;
  onToggle: () => void;
}) {
  const { t } = useLingui();
  const titleId = useId();
  const detailsId = useId();
  const title = titleOf(action);
  const kind = kindText(action.kind);
  const { curveNumber, sse, id, reportCount } = action;
  const openedOn = visitDateText(action.openedOn);
  const days = action.ageDays;
  return (
    <article
      aria-labelledby={titleId}
      className={cn('flex h-full flex-col gap-2 rounded-xl border-2 bg-white p-3 shadow-sm', action.overdue ? 'border-red-700' : 'border-slate-300')}
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <h3 id={titleId} className="text-lg font-bold text-slate-900">
          {kind}
        </h3>
        <div className="flex flex-wrap gap-1">
          <SeverityBadge severity={action.severity} />
          <StateBadge state={action.state} />
        </div>
      </div>
      <p className="text-sm text-slate-800">
        {action.divisionRailway} · {action.section} · {t`Curve ${curveNumber}`} · {lineLabel(action.line)}
      </p>
      <p className="text-sm text-slate-800">
        {sse === null ? t`SSE: not in the register` : t`SSE: ${sse}`} · <span className="whitespace-nowrap">{t`Action ${id}`}</span>
      </p>
      {/* "Machine not working" reports nothing more than its kind. `reported` is the server's
          English (the rule's), so it is held against the rule's English name, not the shown one. */}
      {action.reported !== ACTION_KIND_TEXT[action.kind] ? <p className="text-base font-semibold break-words text-slate-900">{action.reported}</p> : null}
      <p className="text-sm text-slate-800">
        {[
          t`Opened ${openedOn}`,
          // A closed action's age is the days the fix took, shown on the next line.
          ...(action.state === 'open' ? [days === 0 ? t`reported today` : t`reported ${days} d ago`] : []),
          plural(reportCount, { one: 'Reported once', other: `Reported ${reportCount} times` }),
        ].join(' · ')}
      </p>
      <TimingLine action={action} asOf={asOf} />
      <Button
        variant="outline"
        size="sm"
        aria-expanded={open}
        aria-controls={detailsId}
        aria-label={open ? t`Hide details: ${title}` : t`Show details: ${title}`}
        onClick={onToggle}
        className="mt-auto justify-between"
      >
        {open ? t`Hide details` : t`Show details`}
        <span aria-hidden="true">{open ? '▴' : '▾'}</span>
      </Button>
      <div id={detailsId} role="region" aria-label={t`Details of ${title}`} hidden={!open}>
        {open ? <ActionDetails action={action} isAdmin={isAdmin} /> : null}
      </div>
    </article>
  );
}
