import { useLingui } from '@lingui/react/macro';
import { useId } from 'react';
import type { InspectionLog } from '../../../../../common/schemas/inspection.js';
import { Button } from '../../../components/ui/button.js';
import { cn } from '../../../lib/cn.js';
import { visitDateText } from '../../../lib/date-text.js';
import { findingOf } from './record-display.js';
import { PhotoStateFlag, RecordImage } from './record-image.js';
import { INSPECTION_TYPE_TEXTS, lineLabel } from '../../../lib/value-labels.js';

export function TypeBadge({ type }: { type: InspectionLog['type'] }) {
  const { i18n } = useLingui();
  return (
    <span
      className={cn(
        'inline-flex shrink-0 items-center rounded-full px-2.5 py-0.5 text-sm font-bold',
        type === 'CoF' ? 'bg-amber-100 text-amber-900' : 'bg-emerald-100 text-emerald-900',
      )}
    >
      {i18n._(INSPECTION_TYPE_TEXTS[type])}
    </span>
  );
}

/**
 * A record as a card: the server's thumbnail, who, where, what was found, and its actions.
 * The checkbox and the buttons are siblings, never nested, so each has its own name.
 */
export function RecordCard({
  log,
  selected,
  downloading,
  eager = false,
  onToggle,
  onOpen,
  onDownload,
  onDelete,
}: {
  log: InspectionLog;
  selected: boolean;
  downloading: boolean;
  /** The first cards are on screen at once: lazy loading would only delay them. */
  eager?: boolean;
  onToggle: (recordId: string) => void;
  onOpen: (log: InspectionLog) => void;
  onDownload: (recordId: string) => void;
  onDelete: (recordId: string) => void;
}) {
  const { t } = useLingui();
  const titleId = useId();
  const { recordId, curveNumber } = log;
  return (
    <article
      aria-labelledby={titleId}
      className={cn(
        'flex h-full flex-col gap-2 rounded-xl border-2 bg-white p-3 shadow-sm',
        selected ? 'border-brand-700 ring-2 ring-brand-700' : 'border-slate-300',
      )}
    >
      <div className="relative">
        <button
          type="button"
          onClick={() => onOpen(log)}
          aria-label={t`Open ${recordId}`}
          className="block w-full rounded-lg"
        >
          <RecordImage key={log.thumbnailUrl ?? 'none'} src={log.thumbnailUrl} alt={t`Photo of ${recordId}`} lazy={!eager} />
        </button>
        {/* The label is the 44 px touch target; the box itself stays a readable size. */}
        <label className="absolute top-1 left-1 inline-flex size-11 cursor-pointer items-center justify-center rounded-lg bg-white/95 shadow">
          <input
            type="checkbox"
            checked={selected}
            onChange={() => onToggle(recordId)}
            className="size-6 cursor-pointer accent-brand-700"
          />
          <span className="sr-only">{t`Select ${recordId}`}</span>
        </label>
      </div>
      <PhotoStateFlag state={log.photoState} />
      <div className="flex items-start justify-between gap-2">
        <h3 id={titleId} className="font-mono text-base font-bold break-all text-slate-900">
          {recordId}
        </h3>
        <TypeBadge type={log.type} />
      </div>
      <p className="text-sm text-slate-800">
        {visitDateText(log.date)} · {log.technicianName} ({log.technicianId})
      </p>
      <p className="text-sm text-slate-800">
        {log.divisionRailway} · {log.section} · {t`Curve ${curveNumber}`} · {lineLabel(log.line)}
      </p>
      <p className="text-base font-semibold text-slate-900">{findingOf(log)}</p>
      <div className="mt-auto grid grid-cols-3 gap-2 pt-1">
        <Button variant="outline" size="sm" onClick={() => onOpen(log)} aria-label={t`Details ${recordId}`}>
          {t`Details`}
        </Button>
        <Button
          variant="outline"
          size="sm"
          onClick={() => onDownload(recordId)}
          disabled={downloading}
          aria-busy={downloading || undefined}
          aria-label={downloading ? undefined : t`Download ${recordId}`}
        >
          {downloading ? t`Downloading...` : t`Download`}
        </Button>
        <Button variant="outline" size="sm" onClick={() => onDelete(recordId)} aria-label={t`Delete ${recordId}`}>
          {t`Delete`}
        </Button>
      </div>
    </article>
  );
}
