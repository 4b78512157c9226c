/**
 * Drizzle tables: the original app's nine entities, plus sessions, audit_log and
 * login_throttle, split by area under schema/. One schema and one migration history serve
 * PGlite and PostgreSQL alike. Column names are snake_case in SQL and camelCase in TypeScript,
 * as the spec names them. drizzle.config.ts reads this file.
 */
export * from './schema/identity.js';
export * from './schema/records.js';
export * from './schema/register.js';
export * from './schema/jobs.js';
export * from './schema/actions.js';
