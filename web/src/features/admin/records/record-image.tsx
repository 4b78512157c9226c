import { useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { cn } from '../../../lib/cn.js';

/**
 * A record's photo in a box of fixed proportions (the grid does not jump as images arrive).
 * A photo that fails to load becomes the spec's 'Image Error' tile; a record without a photo
 * says so. Parents give it `key={src}` so a new source gets a fresh chance.
 */
export function RecordImage({
  src,
  alt,
  lazy = false,
  className,
}: {
  src: string | null;
  alt: string;
  lazy?: boolean;
  className?: string;
}) {
  const { t } = useLingui();
  const [failed, setFailed] = useState(false);
  const box = (background: string) =>
    cn('relative flex aspect-video w-full items-center justify-center overflow-hidden rounded-lg', background, className);
  if (src === null || failed) {
    return (
      <div className={box(failed ? 'border-2 border-dashed border-red-700 bg-red-50' : 'bg-slate-200')} data-image-state={failed ? 'error' : 'none'}>
        <span className={cn('px-2 text-center text-base font-semibold', failed ? 'text-red-800' : 'text-slate-700')}>
          {failed ? t`Image Error` : t`No photo`}
        </span>
      </div>
    );
  }
  return (
    <div className={box('bg-slate-200')}>
      <img
        src={src}
        alt={alt}
        loading={lazy ? 'lazy' : 'eager'}
        decoding="async"
        onError={() => setFailed(true)}
        className="h-full w-full object-cover"
      />
    </div>
  );
}

/** The flag of a record whose photo was stored but cannot be decoded; nothing for any other. */
export function PhotoStateFlag({ state }: { state: 'pending' | 'ready' | 'undecodable' }) {
  const { t } = useLingui();
  if (state !== 'undecodable') return null;
  return (
    <p className="rounded-lg border-2 border-red-700 bg-red-50 px-2 py-1 text-sm font-semibold text-red-900" data-photo-state="undecodable">
      {t`Photo damaged: the server cannot read it. The file is kept as it was sent.`}
    </p>
  );
}
