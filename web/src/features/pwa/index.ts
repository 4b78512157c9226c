import { lazy } from 'react';
import { withScreenTexts } from '../../lib/i18n.js';

// Shown only when a new version waits: it loads (with its texts) just after the first screen.
export const UpdatePrompt = lazy(() => withScreenTexts(() => import('./update-prompt.js'))().then((m) => ({ default: m.UpdatePrompt })));
