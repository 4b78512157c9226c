import type { MessageDescriptor } from '@lingui/core';
import { msg, plural, t } from '@lingui/core/macro';
import { useLingui } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import { useCallback, useEffect, useState } from 'react';
import { BackButton } from '../../components/ui/back-button.js';
import { Button } from '../../components/ui/button.js';
import { Card, CardDescription, CardTitle } from '../../components/ui/card.js';
import { ConfirmDialog } from '../../components/ui/confirm-dialog.js';
import { Screen } from '../../components/ui/screen.js';
import { cn } from '../../lib/cn.js';
import { i18n } from '../../lib/i18n.js';
import { lineLabel } from '../../lib/value-labels.js';
import { indianLocale } from '../../lib/number-text.js';
import { useSignedInUser } from '../auth/index.js';
import { isOffline } from './drain.js';
import { subscribeOutbox } from './outbox-events.js';
import type { OutboxRecord, OutboxStatus } from './outbox-record.js';
import { outboxErrorText } from './outbox-error-text.js';
import { othersText } from './outbox-texts.js';
import { PASSWORD_CHANGE_MESSAGE } from './send-record.js';
import { countByOwner, deleteRecord, listOwnRecords, sendNow } from './runtime.js';

const TYPE_NAMES: Readonly<Record<OutboxRecord['summary']['type'], MessageDescriptor>> = {
  Service: msg`Service Inspection`,
  CoF: msg`CoF Measurement`,
};

const STATUS_TEXT: Readonly<Record<OutboxStatus, MessageDescriptor>> = {
  pending: msg`Waiting to be sent`,
  sending: msg`Sending...`,
  failed: msg`Refused by the server`,
  'needs-sign-in': msg`Waiting for sign-in`,
};

/** A record held for a new password says so; it is parked like one waiting for sign-in. */
function statusText(record: OutboxRecord): string {
  if (record.status === 'needs-sign-in' && record.lastError === PASSWORD_CHANGE_MESSAGE) return t`Waiting for your new password`;
  return i18n._(STATUS_TEXT[record.status]);
}

// Through cn(): the i18n lint then knows these for classes, not texts.
const STATUS_CLASSES: Record<OutboxStatus, string> = {
  pending: cn('bg-amber-100 text-amber-950'),
  sending: cn('bg-brand-100 text-brand-900'),
  failed: cn('bg-red-100 text-red-900'),
  'needs-sign-in': cn('bg-slate-200 text-slate-900'),
};

/** When the record was made, as the screen has always shown it ("4 Mar 2025, 11:00 am"), in the language shown. */
const madeAtText = (at: number): string => new Intl.DateTimeFormat(indianLocale(), { dateStyle: 'medium', timeStyle: 'short' }).format(at);

/** The photo from the stored blob; the object URL lives exactly as long as the image element. */
function Thumbnail({ photo, alt }: { photo: Blob; alt: string }) {
  const attach = useCallback(
    (image: HTMLImageElement | null) => {
      if (image === null) return;
      const url = URL.createObjectURL(photo);
      image.src = url;
      return () => URL.revokeObjectURL(url);
    },
    [photo],
  );
  return <img ref={attach} alt={alt} className="size-20 shrink-0 rounded-lg border border-slate-300 bg-slate-100 object-cover" />;
}

function RecordItem({ record, onDelete }: { record: OutboxRecord; onDelete: () => void }) {
  const { summary } = record;
  const titleId = `outbox-${record.localId}`;
  const localId = record.localId;
  const lastError = record.lastError ? outboxErrorText(record.lastError) : null;
  return (
    <li aria-labelledby={titleId} className="flex gap-3 rounded-xl border border-slate-300 bg-white p-3 shadow-sm">
      <Thumbnail photo={record.photo} alt={t`Photo of ${localId}`} />
      <div className="flex min-w-0 flex-1 flex-col gap-1">
        <p id={titleId} className="font-bold text-slate-900">
          {i18n._(TYPE_NAMES[summary.type])}
        </p>
        <p className="text-sm break-words text-slate-800">
          {[summary.divisionRailway, summary.section, summary.curveNumber, lineLabel(summary.line)].join(' · ')}
        </p>
        <p className="text-sm text-slate-700">
          <time dateTime={new Date(record.createdAt).toISOString()}>{madeAtText(record.createdAt)}</time>
          <span aria-hidden="true"> · </span>
          <span className="font-mono">{record.localId}</span>
        </p>
        <p>
          <span className={`inline-block rounded-full px-2 py-0.5 text-sm font-semibold ${STATUS_CLASSES[record.status]}`}>
            {statusText(record)}
          </span>
        </p>
        {lastError ? <p className="text-sm text-red-800">{t`Last error: ${lastError}`}</p> : null}
        <div>
          <Button variant="outline" size="sm" onClick={onDelete} disabled={record.status === 'sending'}>
            <Trans>Delete</Trans>
          </Button>
        </div>
      </div>
    </li>
  );
}

/** The live list of the technician's records, read again on every outbox change. */
function useOwnRecords(owner: string) {
  const [state, setState] = useState<{ records: OutboxRecord[]; others: number } | null>(null);
  useEffect(() => {
    let current = true;
    const read = () => {
      Promise.all([listOwnRecords(owner), countByOwner()])
        .then(([records, counts]) => {
          if (!current) return;
          const others = Object.entries(counts).reduce((sum, [who, count]) => (who === owner ? sum : sum + count.total), 0);
          setState({ records, others });
        })
        .catch(() => {
          if (current) setState({ records: [], others: 0 });
        });
    };
    read();
    const stop = subscribeOutbox(read);
    return () => {
      current = false;
      stop();
    };
  }, [owner]);
  return state;
}

function sendResultText(result: Awaited<ReturnType<typeof sendNow>>): string {
  if (result === null) return t`The outbox is not running. Reload the app and try again.`;
  if (result.stoppedBy === 'offline') return t`No network. The records will be sent when the network is back.`;
  if (result.stoppedBy === 'unauthorized') return t`Your session has ended. Sign in again to send the records.`;
  if (result.stoppedBy === 'unreachable') return t`The server could not be reached. The outbox keeps trying.`;
  const { refused, sent } = result;
  if (refused > 0) return plural(refused, { one: '# record refused by the server.', other: '# records refused by the server.' });
  return sent > 0 ? plural(sent, { one: '# record sent.', other: '# records sent.' }) : t`Nothing was sent.`;
}

/** The outbox (/outbox): what has not reached the server yet, and why. */
export function OutboxPage() {
  // Re-renders in a newly chosen language: the texts below are read at render.
  useLingui();
  const user = useSignedInUser();
  const state = useOwnRecords(user.employeeId);
  const [sending, setSending] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const [toDelete, setToDelete] = useState<OutboxRecord | null>(null);
  const [deleting, setDeleting] = useState(false);

  const onSendNow = async () => {
    setSending(true);
    setMessage(isOffline() ? sendResultText({ sent: 0, refused: 0, stoppedBy: 'offline', blockedUntil: null }) : t`Sending...`);
    try {
      setMessage(sendResultText(await sendNow()));
    } finally {
      setSending(false);
    }
  };

  const onConfirmDelete = async () => {
    if (toDelete === null) return;
    const localId = toDelete.localId;
    setDeleting(true);
    try {
      await deleteRecord(localId);
      setMessage(t`${localId} deleted.`);
    } catch {
      setMessage(t`${localId} could not be deleted. Please try again.`);
    } finally {
      setDeleting(false);
      setToDelete(null);
    }
  };

  const records = state?.records ?? [];
  const deletingId = toDelete?.localId ?? '';
  const count = records.length;
  return (
    <Screen title={t`Outbox`} subtitle={t`Records not on the server yet`} back={<BackButton to="/purpose" />}>
      {state === null ? (
        <p role="status" className="text-base font-semibold text-slate-800">
          <Trans>Loading...</Trans>
        </p>
      ) : records.length === 0 ? (
        <Card>
          <CardTitle>
            <Trans>Nothing waiting</Trans>
          </CardTitle>
          <CardDescription className="mt-1 text-base">
            <Trans>Every record you submitted on this phone has reached the server.</Trans>
          </CardDescription>
        </Card>
      ) : (
        <>
          <p className="text-base text-slate-800">
            {plural(count, {
              one: '# record on this phone. It is sent on its own when the network allows.',
              other: '# records on this phone. They are sent on their own when the network allows.',
            })}
          </p>
          <Button size="lg" onClick={() => void onSendNow()} disabled={sending}>
            {sending ? t`Sending...` : t`Send now`}
          </Button>
          <ul aria-label={t`Records waiting to be sent`} className="flex flex-col gap-3">
            {records.map((record) => (
              <RecordItem key={record.localId} record={record} onDelete={() => setToDelete(record)} />
            ))}
          </ul>
        </>
      )}
      {message !== null ? (
        <p role="status" className="text-base text-slate-900">
          {message}
        </p>
      ) : null}
      {state !== null && state.others > 0 ? (
        <p className="text-sm text-slate-700">{othersText(state.others)}</p>
      ) : null}
      {toDelete !== null ? (
        <ConfirmDialog
          title={t`Delete this record?`}
          confirmLabel={t`Delete`}
          destructive
          busy={deleting}
          onConfirm={() => void onConfirmDelete()}
          onCancel={() => setToDelete(null)}
        >
          {t`${deletingId} has not reached the server and cannot be recovered once deleted.`}
        </ConfirmDialog>
      ) : null}
    </Screen>
  );
}
