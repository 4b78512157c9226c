import { useCallback, useEffect, useRef, useState } from 'react';
import { type CameraFacing, canUseCamera, openCamera, stopStream } from '../../../lib/camera-stream.js';

export type CameraState =
  | { status: 'off' }
  | { status: 'starting'; facing: CameraFacing }
  | { status: 'live'; facing: CameraFacing; stream: MediaStream }
  /** Denied, absent, or in use by another app: the page falls back to the file picker. */
  | { status: 'unavailable' };

/**
 * The live camera. The stream is kept in a ref as well as in state so it is stopped on
 * every way out (cancel, capture, switch, leaving the page) even from a stale closure.
 */
export function useCameraStream() {
  const [state, setState] = useState<CameraState>({ status: 'off' });
  const streamRef = useRef<MediaStream | null>(null);
  // Each open gets a number; a stream that arrives after a newer request (or after cancel) is stopped at once.
  const requestRef = useRef(0);

  const release = useCallback(() => {
    requestRef.current += 1;
    stopStream(streamRef.current);
    streamRef.current = null;
  }, []);

  const stop = useCallback(() => {
    release();
    setState({ status: 'off' });
  }, [release]);

  const open = useCallback(
    async (facing: CameraFacing): Promise<boolean> => {
      release();
      const request = requestRef.current;
      if (!canUseCamera()) {
        setState({ status: 'unavailable' });
        return false;
      }
      setState({ status: 'starting', facing });
      try {
        const stream = await openCamera(facing);
        if (request !== requestRef.current) {
          stopStream(stream);
          return false;
        }
        streamRef.current = stream;
        setState({ status: 'live', facing, stream });
        return true;
      } catch {
        if (request === requestRef.current) setState({ status: 'unavailable' });
        return false;
      }
    },
    [release],
  );

  /** Front/back switch; if the other camera will not open, the previous one comes back. */
  const switchFacing = useCallback(async () => {
    if (state.status !== 'live') return;
    const previous = state.facing;
    const opened = await open(previous === 'environment' ? 'user' : 'environment');
    if (!opened) await open(previous);
  }, [open, state]);

  useEffect(() => release, [release]);

  return { state, open, stop, switchFacing };
}
