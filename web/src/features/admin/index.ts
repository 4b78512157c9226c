export { AdminPage } from './admin-page.js';
