/** Who may sign in and how: users, their sessions and trusted browsers, sign-in throttling, and the audit trail. */
import { sql } from 'drizzle-orm';
import { bigserial, boolean, check, index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from './columns.js';

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    employeeId: varchar('employee_id', { length: 50 }).notNull(),
    name: varchar('name', { length: 100 }).notNull(),
    role: varchar('role', { length: 20 }).notNull().default('Technician'),
    phone: varchar('phone', { length: 20 }),
    /** argon2id hash; the spec's `password` field. Never leaves the server. */
    passwordHash: text('password_hash').notNull(),
    divisionAccess: varchar('division_access', { length: 50 }),
    /**
     * Set when someone else chose the password (an Admin adding the user with their phone, or a
     * reset): until the user picks their own, the server answers every call but me, logout and
     * change-password with PASSWORD_CHANGE_REQUIRED.
     */
    mustChangePassword: boolean('must_change_password').notNull().default(false),
    /**
     * Made by the demo seed, with the published demo password: signs in only while demo mode is
     * on. A marker, not a name pattern, so a real account is never taken for one.
     */
    isDemo: boolean('is_demo').notNull().default(false),
    /** Set while the account is switched off: no sign-in, no session; records keep the name. */
    deactivatedAt: timestamp('deactivated_at', { withTimezone: true }),
    /**
     * The interface language the user chose (common/constants.ts LANGUAGES), kept here so it
     * follows them to another phone. Null until they choose: the device's own choice applies.
     */
    language: text('language'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // Employee IDs are matched case-insensitively at sign-in, so uniqueness is too.
    uniqueIndex('users_employee_id_lower_uq').on(sql`lower(${t.employeeId})`),
    check('users_role_ck', sql`${t.role} in ('Technician', 'Admin', 'Client')`),
    // Plain IDs only (common/rules/employee-id.ts), so lower() here and in JavaScript agree.
    // Migration 0009 adds it NOT VALID: rows made before the rule are left as they were.
    check('users_employee_id_plain_ck', sql`${t.employeeId} ~ '^[A-Za-z0-9._-]+$'`),
    check('users_language_ck', sql`${t.language} in ('en', 'hi')`),
  ],
);

export const sessions = pgTable(
  'sessions',
  {
    /** sha256 of the cookie token: a leaked table does not yield usable sessions. */
    id: varchar('id', { length: 64 }).primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    userAgent: varchar('user_agent', { length: 300 }),
    ipAddress: varchar('ip_address', { length: 64 }),
  },
  (t) => [index('sessions_user_idx').on(t.userId), index('sessions_expires_idx').on(t.expiresAt)],
);

export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    actorUserId: integer('actor_user_id'),
    actorEmployeeId: varchar('actor_employee_id', { length: 50 }),
    action: varchar('action', { length: 50 }).notNull(),
    entity: varchar('entity', { length: 50 }).notNull(),
    entityId: varchar('entity_id', { length: 200 }),
    before: jsonb('before'),
    after: jsonb('after'),
    requestId: varchar('request_id', { length: 64 }),
  },
  (t) => [index('audit_log_at_idx').on(t.at), index('audit_log_entity_idx').on(t.entity, t.entityId)],
);

/**
 * Sign-in attempts per key (an employee ID, an address, a trusted device), shared by all
 * instances (server/features/auth/login-throttle.ts). An attempt takes a slot (`pending`) before
 * its password is checked; `blockedUntil` is when the key may try again.
 */
export const loginThrottle = pgTable(
  'login_throttle',
  {
    key: varchar('key', { length: 200 }).primaryKey(),
    windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
    failures: integer('failures').notNull(),
    lastFailureAt: timestamp('last_failure_at', { withTimezone: true }).notNull().defaultNow(),
    blockedUntil: timestamp('blocked_until', { withTimezone: true }),
    /** Attempts under way (their passwords being checked), and when the latest one began. */
    pending: integer('pending').notNull().default(0),
    pendingSince: timestamp('pending_since', { withTimezone: true }),
  },
  (t) => [index('login_throttle_last_failure_idx').on(t.lastFailureAt)],
);

/**
 * Browsers a user has signed in from (OWASP's device cookies): a sign-in from one of them is
 * throttled by its own count, not the employee ID's, so a stranger typing an Admin's ID cannot
 * keep that Admin out. The cookie carries the token; the table keeps only its sha256.
 */
export const trustedDevices = pgTable(
  'trusted_devices',
  {
    tokenHash: varchar('token_hash', { length: 64 }).primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('trusted_devices_user_idx').on(t.userId, t.lastUsedAt.desc()), index('trusted_devices_expires_idx').on(t.expiresAt)],
);

export type UserRow = typeof users.$inferSelect;
export type NewUserRow = typeof users.$inferInsert;
