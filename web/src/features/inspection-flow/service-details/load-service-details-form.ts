import { lazyStep } from '../entry/lazy-step.js';

/** The service details form and its parts pickers, fetched apart from the first page load. */
export const lazyServiceDetailsForm = lazyStep(() => import('./service-details-form.js').then((m) => m.ServiceDetailsForm));
