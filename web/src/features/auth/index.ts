export { AuthProvider, type LogoutGuard, useAuth, useSignedInUser } from './auth-context.js';
export { homePathFor } from './home-path.js';
export { LoginPage } from './login-page.js';
