import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { type Role, ROLES } from '../../../common/constants.js';
import { i18n } from './i18n.js';

/**
 * The roles as shown (/purpose, the admin header, the user list): stored and sent in English,
 * said in the reader's language. Apart from value-labels.ts, whose texts load after the first
 * screen, because /purpose shows a role at once.
 */
export const ROLE_TEXTS = { Technician: msg`Technician`, Admin: msg`Admin`, Client: msg`Client` } as const satisfies Record<Role, MessageDescriptor>;

const isRole = (value: string): value is Role => ROLES.some((role) => role === value);

/** A role in the reader's language; a role this app does not know, as stored. */
export const roleLabel = (role: string): string => (isRole(role) ? i18n._(ROLE_TEXTS[role]) : role);
