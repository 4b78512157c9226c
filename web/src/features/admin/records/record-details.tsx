import { useLingui } from '@lingui/react/macro';
import { useId, useRef } from 'react';
import type { InspectionLog } from '../../../../../common/schemas/inspection.js';
import { Button } from '../../../components/ui/button.js';
import { useModalFocus } from '../../../components/ui/use-modal-focus.js';
import { detailRowsOf } from './record-display.js';
import { PhotoStateFlag, RecordImage } from './record-image.js';
import { TypeBadge } from './record-card.js';
import { imageUrlOf } from './records-api.js';

/**
 * One record in full: the photo at full size and every field, with its Download and Delete.
 * A modal dialog: focus starts on Close, stays inside, and returns to the opener; Escape closes.
 */
export function RecordDetails({
  log,
  downloading,
  onDownload,
  onDelete,
  onClose,
}: {
  log: InspectionLog;
  downloading: boolean;
  onDownload: (recordId: string) => void;
  onDelete: (recordId: string) => void;
  onClose: () => void;
}) {
  const { t } = useLingui();
  const titleId = useId();
  const dialogRef = useRef<HTMLDivElement>(null);
  const closeRef = useRef<HTMLButtonElement>(null);

  const onKeyDown = useModalFocus(dialogRef, closeRef, onClose);

  const { recordId } = log;
  const photo = log.imageUrl === null ? null : imageUrlOf(recordId);
  return (
    <div className="fixed inset-0 z-30 overflow-y-auto bg-slate-900/60 sm:p-4">
      <div
        ref={dialogRef}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        onKeyDown={onKeyDown}
        className="mx-auto flex min-h-full w-full max-w-3xl flex-col gap-4 bg-white p-4 shadow-xl sm:min-h-0 sm:rounded-xl"
      >
        {/* Header and actions stay in reach while a phone scrolls through the fields. */}
        <div className="sticky top-0 z-10 -mx-4 -mt-4 flex items-start justify-between gap-3 border-b border-slate-200 bg-white px-4 py-3 sm:rounded-t-xl">
          <div className="min-w-0">
            <p className="text-sm font-semibold text-slate-700">{t`Inspection record`}</p>
            <h2 id={titleId} className="font-mono text-lg font-bold break-all text-slate-900 sm:text-xl">
              {log.recordId}
            </h2>
          </div>
          <div className="flex shrink-0 items-center gap-2">
            <TypeBadge type={log.type} />
            <Button ref={closeRef} variant="outline" size="sm" onClick={onClose}>
              {t`Close`}
            </Button>
          </div>
        </div>
        <RecordImage key={photo ?? 'none'} src={photo} alt={t`Photo of ${recordId}`} className="[&_img]:bg-slate-900 [&_img]:object-contain" />
        <PhotoStateFlag state={log.photoState} />
        <dl className="grid grid-cols-2 gap-x-4 gap-y-2 sm:gap-x-6">
          {detailRowsOf(log).map(([label, value]) => (
            <div key={label} className="flex flex-col border-b border-slate-200 pb-2">
              <dt className="text-sm text-slate-700">{label}</dt>
              <dd className="text-base font-medium break-words text-slate-900">{value}</dd>
            </div>
          ))}
        </dl>
        <div className="sticky bottom-0 -mx-4 -mb-4 grid grid-cols-2 gap-3 border-t border-slate-200 bg-white px-4 py-3 sm:rounded-b-xl">
          <Button
            variant="outline"
            onClick={() => onDownload(log.recordId)}
            disabled={downloading || log.imageUrl === null}
            aria-busy={downloading || undefined}
          >
            {downloading ? t`Downloading...` : t`Download`}
          </Button>
          <Button variant="destructive" onClick={() => onDelete(log.recordId)}>
            {t`Delete`}
          </Button>
        </div>
      </div>
    </div>
  );
}
