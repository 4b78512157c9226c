import { Trans } from '@lingui/react/macro';
import { Suspense } from 'react';
import { Outlet } from 'react-router';
import { ToastHost } from '../../components/ui/toast-host.js';
import { UpdatePrompt } from '../../features/pwa/index.js';

function LoadingScreen() {
  return (
    <div role="status" data-loading-screen className="flex min-h-dvh items-center justify-center p-4 text-lg font-semibold text-slate-800">
      <Trans>Loading...</Trans>
    </div>
  );
}

export function RootLayout() {
  return (
    <>
      {/* Lazily loaded areas (admin) suspend here, keeping the toast host mounted. */}
      <Suspense fallback={<LoadingScreen />}>
        <Outlet />
      </Suspense>
      <ToastHost />
      <Suspense fallback={null}>
        <UpdatePrompt />
      </Suspense>
    </>
  );
}
