import { lazy } from 'react';
import { withScreenTexts } from '../../lib/i18n.js';

export { AuthProvider, type LogoutGuard, useAuth, useSignedInUser } from './auth-context.js';
export { CHANGE_PASSWORD_PATH, homePathFor, landingPathFor, mustChangePassword } from './home-path.js';
export { LoginPage } from './login-page.js';
export { LanguageSwitch } from './language-switch.js';

// Its own chunk: most sign-ins never need it (the technician's first-load budget: docs/architecture.md, 'Budgets').
export const ChangePasswordPage = lazy(() => withScreenTexts(() => import('./change-password-page.js'))().then((m) => ({ default: m.ChangePasswordPage })));
