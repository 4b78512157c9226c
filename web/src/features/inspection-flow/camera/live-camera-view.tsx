import { Trans, useLingui } from '@lingui/react/macro';
import { type RefObject, useEffect, useState } from 'react';
import { cn } from '../../../lib/cn.js';

// Own styles rather than the app's Button: light-on-dark controls over the camera image,
// still at least 44 px tall for gloved thumbs.
const CONTROL =
  'inline-flex min-h-12 items-center justify-center border-2 font-semibold disabled:cursor-not-allowed';

function SwitchIcon() {
  return (
    <svg viewBox="0 0 24 24" className="size-6" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
      <path d="M3 12a9 9 0 0 1 15.5-6.2L21 8" />
      <path d="M21 3v5h-5" />
      <path d="M21 12a9 9 0 0 1-15.5 6.2L3 16" />
      <path d="M3 21v-5h5" />
    </svg>
  );
}

/**
 * The full-screen live preview: the whole phone screen shows what the camera sees, with
 * the three controls in reach of a thumb at the bottom.
 */
export function LiveCameraView({
  stream,
  videoRef,
  capturing,
  status,
  onCancel,
  onCapture,
  onSwitch,
}: {
  /** Null while the camera is still starting. */
  stream: MediaStream | null;
  videoRef: RefObject<HTMLVideoElement | null>;
  capturing: boolean;
  /** A short line shown over the preview, e.g. the GPS state. */
  status: string;
  onCancel: () => void;
  onCapture: () => void;
  onSwitch: () => void;
}) {
  const { t } = useLingui();
  // Capture waits for the first frame: pressing it earlier would only raise 'Video not ready'.
  const [streamWithFrame, setStreamWithFrame] = useState<MediaStream | null>(null);
  const frameReady = stream !== null && streamWithFrame === stream;
  useEffect(() => {
    const video = videoRef.current;
    if (video === null || stream === null) return;
    const onFrame = () => {
      if (video.videoWidth > 0) setStreamWithFrame(stream);
    };
    video.addEventListener('loadeddata', onFrame);
    video.addEventListener('playing', onFrame);
    video.srcObject = stream;
    // A stream that already has a frame (switching back, or a fast camera) fires no event.
    const firstLook = window.setTimeout(onFrame, 0);
    // Autoplay can be refused (power saving); the preview then starts on the next tap instead.
    Promise.resolve(video.play()).catch(() => undefined);
    return () => {
      window.clearTimeout(firstLook);
      video.removeEventListener('loadeddata', onFrame);
      video.removeEventListener('playing', onFrame);
      video.srcObject = null;
    };
  }, [stream, videoRef]);

  return (
    <div role="dialog" aria-modal="true" aria-label={t`Camera preview`} className="fixed inset-0 z-40 flex flex-col bg-black text-white">
      <p className="px-4 py-2 text-sm font-semibold" role="status">
        {stream === null || !frameReady ? t`Starting camera...` : status}
      </p>
      <div className="relative min-h-0 flex-1">
        <video ref={videoRef} autoPlay playsInline muted aria-label={t`Live camera image`} className="absolute inset-0 size-full object-contain" />
      </div>
      <div className="grid grid-cols-3 items-center gap-3 px-4 pt-3 pb-[max(1rem,env(safe-area-inset-bottom))]">
        <button type="button" onClick={onCancel} className={cn(CONTROL, 'rounded-lg border-white px-3 text-white')}>
          <Trans>Cancel</Trans>
        </button>
        <button
          type="button"
          onClick={onCapture}
          disabled={stream === null || !frameReady || capturing}
          className={cn(CONTROL, 'min-h-20 rounded-full border-white bg-white px-3 text-lg text-slate-900 disabled:border-slate-500 disabled:bg-slate-500')}
        >
          <Trans>Capture</Trans>
        </button>
        <button
          type="button"
          onClick={onSwitch}
          disabled={stream === null || capturing}
          className={cn(CONTROL, 'flex-col rounded-lg border-white px-1 py-1 text-sm text-white disabled:border-slate-500 disabled:text-slate-400')}
        >
          <SwitchIcon />
          <Trans>Switch Camera</Trans>
        </button>
      </div>
    </div>
  );
}
