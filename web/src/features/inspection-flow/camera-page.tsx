import { Trans } from '@lingui/react/macro';
import { lazy, Suspense } from 'react';
import { Button } from '../../components/ui/button.js';
import { Card, CardDescription, CardTitle } from '../../components/ui/card.js';
import { CameraFrame } from './camera/camera-frame.js';
// Type only: erased from the build, so the screen's code stays out of this chunk.
import type { CameraScreen as CameraScreenComponent } from './camera/camera-screen.js';
import { storedEntryType } from './flow-storage.js';
import { withScreenTexts } from '../../lib/i18n.js';

interface CameraScreenModule {
  CameraScreen: typeof CameraScreenComponent;
}

let loading: Promise<CameraScreenModule> | null = null;

/**
 * Starts fetching the camera screen's code. Earlier steps call it so the code is already
 * on the phone when the technician reaches the camera, perhaps with less signal.
 */
export function preloadCameraScreen(): Promise<CameraScreenModule> {
  // The screen's texts (the field catalogue) come with its code.
  loading ??= withScreenTexts(() => import('./camera/camera-screen.js'))().catch((error: unknown) => {
    // Forget the failure so the next attempt fetches again instead of failing at once.
    loading = null;
    throw error;
  });
  return loading;
}

/** Shown when the camera code cannot be fetched (no signal): the entry is safe in storage. */
function CameraLoadFailed() {
  return (
    <CameraFrame type={storedEntryType() ?? 'Service'}>
      <Card role="alert">
        <CardTitle>
          <Trans>Camera could not be loaded</Trans>
        </CardTitle>
        <CardDescription className="mt-1 text-base">
          <Trans>Please check your connection and try again. Your inspection details are kept.</Trans>
        </CardDescription>
        <Button size="lg" className="mt-4 w-full" onClick={() => window.location.reload()}>
          <Trans>Try Again</Trans>
        </Button>
      </Card>
    </CameraFrame>
  );
}

// Capture, overlay and upload code loads only when the flow reaches the camera, keeping it
// off the technician's first load (docs/architecture.md, 'Budgets').
const CameraScreen = lazy(() =>
  preloadCameraScreen().then(
    (m) => ({ default: m.CameraScreen }),
    () => ({ default: CameraLoadFailed }),
  ),
);

export function CameraPage() {
  return (
    <Suspense
      // The frame (title, step, Back) shows at once, so Back works even on a slow connection.
      fallback={
        <CameraFrame type={storedEntryType() ?? 'Service'}>
          <p role="status" className="text-base font-semibold text-slate-800">
            <Trans>Loading camera...</Trans>
          </p>
        </CameraFrame>
      }
    >
      <CameraScreen />
    </Suspense>
  );
}
