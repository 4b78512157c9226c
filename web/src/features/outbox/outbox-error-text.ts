import { t } from '@lingui/core/macro';
import {
  NO_ANSWER_MESSAGE,
  NO_NETWORK_MESSAGE,
  NOT_NOW_MESSAGE,
  PASSWORD_CHANGE_MESSAGE,
  PHOTO_TOO_LARGE_MESSAGE,
  REFUSED_MESSAGE,
  SESSION_ENDED_MESSAGE,
} from './send-record.js';

/** The status in a reason made from `template` (send-record.ts), or null for any other text. */
function statusIn(stored: string, template: string): string | null {
  const [before = '', after = ''] = template.split('{status}');
  if (stored.length <= before.length + after.length || !stored.startsWith(before) || !stored.endsWith(after)) return null;
  const status = stored.slice(before.length, stored.length - after.length);
  return /^\d{3}$/.test(status) ? status : null;
}

/**
 * Why a record is still in the outbox, in the reader's language: the outbox's own reasons
 * (stored in English, send-record.ts) are translated; the server's words are shown as they came.
 */
export function outboxErrorText(stored: string): string {
  switch (stored) {
    case SESSION_ENDED_MESSAGE:
      return t`Your session has ended. Sign in again to send this record.`;
    case PASSWORD_CHANGE_MESSAGE:
      return t`Waiting for your new password. It is sent once you have chosen one.`;
    case PHOTO_TOO_LARGE_MESSAGE:
      return t`The photo is too large for the server (413).`;
    case NO_ANSWER_MESSAGE:
      return t`No answer from the server in time.`;
    case NO_NETWORK_MESSAGE:
      return t`No network connection.`;
  }
  const refused = statusIn(stored, REFUSED_MESSAGE);
  if (refused !== null) return t`The server refused the record (${refused}).`;
  const notNow = statusIn(stored, NOT_NOW_MESSAGE);
  if (notNow !== null) return t`The server could not take the record now (${notNow}).`;
  return stored;
}
