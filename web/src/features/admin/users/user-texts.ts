import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { Role } from '../../../../../common/constants.js';

/** A role as shown: stored and sent in English, said in the reader's language. */
export const ROLE_LABELS: Readonly<Record<Role, MessageDescriptor>> = { Technician: msg`Technician`, Admin: msg`Admin`, Client: msg`Client` };
