import { lazy, Suspense } from 'react';
import { Route, Routes } from 'react-router';
import { ROLES } from '../../../common/constants.js';
import { ChangePasswordPage, LoginPage } from '../features/auth/index.js';
import {
  CameraPage,
  DataEntryPage,
  hasInspectionEntry,
  hasSubmissionResult,
  ReviewPage,
  ServiceDetailsPage,
  SuccessPage,
} from '../features/inspection-flow/index.js';
import { NotFoundPage } from '../features/not-found/index.js';
import { OutboxPage, OutboxWaitingNotice } from '../features/outbox/index.js';
import { PurposePage } from '../features/purpose/index.js';
import { RootLayout } from './layouts/root-layout.js';
import { RedirectSignedIn, RequireAuth, RequireRole, RequireSignedIn, RequireStored } from './route-guards.js';
import { withScreenTexts } from '../lib/i18n.js';

// Separate chunks: a technician's phone never downloads admin code (the first-load budget: docs/architecture.md, 'Budgets').
// The admin page loads its catalogue itself (features/admin/index.ts); the machine dashboard with the field texts.
const AdminPage = lazy(() => import('../features/admin/index.js').then((m) => ({ default: m.AdminPage })));
const MachineDashboardPage = lazy(() =>
  withScreenTexts(() => import('../features/machine-dashboard/index.js'))().then((m) => ({ default: m.MachineDashboardPage })),
);
const outboxWaitingNotice = (
  <Suspense fallback={null}>
    <OutboxWaitingNotice />
  </Suspense>
);

// Clients are read-only: the field flow is for Technicians and Admins; the admin views for
// Admins and Clients. (Said as exclusions, so the role values read as values, not texts.)
const FIELD_ROLES = ROLES.filter((role) => role !== 'Client');
const ADMIN_ROLES = ROLES.filter((role) => role !== 'Technician');

/** Every screen's route (docs/functional-requirements.md, 'Screens') with its guard. */
export function AppRoutes() {
  return (
    <Routes>
      <Route element={<RootLayout />}>
        <Route element={<RedirectSignedIn />}>
          <Route index element={<LoginPage />} />
          <Route path="login" element={<LoginPage />} />
        </Route>
        {/* The one screen a user whose password someone else chose can reach (RequireAuth sends them here). */}
        <Route element={<RequireSignedIn />}>
          <Route path="change-password" element={<ChangePasswordPage notice={outboxWaitingNotice} />} />
        </Route>
        <Route element={<RequireAuth />}>
          <Route element={<RequireRole allow={FIELD_ROLES} redirectTo="/admin" />}>
            <Route path="purpose" element={<PurposePage />} />
            <Route path="data-entry" element={<DataEntryPage />} />
            <Route path="service-details" element={<ServiceDetailsPage />} />
            <Route path="outbox" element={<OutboxPage />} />
            <Route element={<RequireStored present={hasInspectionEntry} redirectTo="/purpose" />}>
              <Route path="review" element={<ReviewPage />} />
              <Route path="camera" element={<CameraPage />} />
            </Route>
            <Route element={<RequireStored present={hasSubmissionResult} redirectTo="/purpose" />}>
              <Route path="success" element={<SuccessPage />} />
            </Route>
          </Route>
          <Route element={<RequireRole allow={ADMIN_ROLES} redirectTo="/purpose" />}>
            <Route path="admin" element={<AdminPage />} />
            <Route path="machine-dashboard" element={<MachineDashboardPage />} />
          </Route>
        </Route>
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}
