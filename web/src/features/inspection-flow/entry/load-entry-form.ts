import { lazyStep } from './lazy-step.js';

/** The entry form with its pickers and rules, fetched when data entry opens. */
export const lazyEntryForm = lazyStep(() => import('./entry-form.js').then((m) => m.EntryForm));
