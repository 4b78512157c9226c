import { useEffect, useState } from 'react';
import type { GeoFix } from '../../../../../common/rules/photo-overlay.js';

export type PositionState = { status: 'locating' } | { status: 'located'; fix: GeoFix } | { status: 'unavailable' };

const hasGeolocation = () => typeof navigator !== 'undefined' && 'geolocation' in navigator;

// A fix may take up to 10 s outdoors; capture never waits for it.
const POSITION_OPTIONS: PositionOptions = { enableHighAccuracy: true, timeout: 10_000, maximumAge: 30_000 };

/**
 * The device position while the camera screen is open. Watching (rather than asking once)
 * lets the first coarse network fix improve to GPS accuracy while the technician frames
 * the photo; the watch ends with the screen so the GPS does not drain the battery.
 */
export function useDevicePosition(): PositionState {
  const [state, setState] = useState<PositionState>(() => (hasGeolocation() ? { status: 'locating' } : { status: 'unavailable' }));

  useEffect(() => {
    if (!hasGeolocation()) return;
    const geolocation = navigator.geolocation;
    const id = geolocation.watchPosition(
      (position) => {
        const { latitude, longitude, accuracy } = position.coords;
        setState({ status: 'located', fix: { latitude, longitude, accuracy } });
      },
      // A later timeout must not throw away a fix already found.
      () => setState((current) => (current.status === 'located' ? current : { status: 'unavailable' })),
      POSITION_OPTIONS,
    );
    return () => geolocation.clearWatch(id);
  }, []);

  return state;
}

export function positionFix(state: PositionState): GeoFix | null {
  return state.status === 'located' ? state.fix : null;
}
