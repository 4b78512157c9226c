import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { Role } from '../../../../common/constants.js';
import { i18n } from '../../lib/i18n.js';

const ROLE_LABELS: Readonly<Record<Role, MessageDescriptor>> = {
  Technician: msg`Technician`,
  Admin: msg`Admin`,
  Client: msg`Client`,
};

/** A role as the reader's language names it; the value itself stays English (stored, sent, compared). */
export function roleLabel(role: Role): string {
  return i18n._(ROLE_LABELS[role]);
}
