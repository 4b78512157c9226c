import { lazy } from 'react';
import { withScreenTexts } from '../../lib/i18n.js';

// The flow's screens load after the first screen, each with its texts (the field catalogue,
// lingui.config.ts), so the first download stays within its budget in both languages; the
// service worker keeps them on the phone for offline use.
export const CameraPage = lazy(() => withScreenTexts(() => import('./camera-page.js'))().then((m) => ({ default: m.CameraPage })));
export const DataEntryPage = lazy(() =>
  withScreenTexts(() => import('./data-entry-page.js'))().then((m) => ({ default: m.DataEntryPage })),
);
export { hasInspectionEntry, hasSubmissionResult } from './flow-storage.js';
export const ReviewPage = lazy(() => withScreenTexts(() => import('./review-page.js'))().then((m) => ({ default: m.ReviewPage })));
export const ServiceDetailsPage = lazy(() =>
  withScreenTexts(() => import('./service-details-page.js'))().then((m) => ({ default: m.ServiceDetailsPage })),
);
export const SuccessPage = lazy(() => withScreenTexts(() => import('./success-page.js'))().then((m) => ({ default: m.SuccessPage })));
export { ReferenceWarmer } from './reference-warmer.js';
