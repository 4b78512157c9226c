export { UserManagement } from './user-management.js';
