import { lazy } from 'react';

/** The due list of /purpose in its own chunk: the purposes show at once, the list follows. */
export const DueList = lazy(() => import('./due-list.js').then((m) => ({ default: m.DueList })));
