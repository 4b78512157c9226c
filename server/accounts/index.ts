/** User accounts as sign-in (auth), User Management (users) and the report jobs read them. */
export { toPublicUser } from './public-user.js';
export { findUserById, findUserByEmployeeId, updateLanguage, updatePassword } from './user-rows.js';
