import { createElement, lazy } from 'react';
import { loadAdminTexts } from '../../lib/i18n.js';

/**
 * The dashboard's page, once both its code and its catalogue (lib/i18n.ts) are here: a phone
 * that never opens it downloads neither, and no admin text is drawn before it can be said in
 * the language shown. Both load at once, under the route's Suspense.
 */
const PageWithTexts = lazy(() => Promise.all([import('./admin-page.js'), loadAdminTexts()]).then(([page]) => ({ default: page.AdminPage })));

export function AdminPage() {
  return createElement(PageWithTexts);
}
