export { CameraPage } from './camera-page.js';
export { DataEntryPage } from './data-entry-page.js';
export { hasInspectionEntry, hasSubmissionResult } from './flow-storage.js';
export { ReviewPage } from './review-page.js';
export { ServiceDetailsPage } from './service-details-page.js';
export { SuccessPage } from './success-page.js';
export { ReferenceWarmer } from './reference-warmer.js';
