import { plural } from '@lingui/core/macro';

/*
 * The outbox's counted words, read when they are shown (so in the language shown), each as one
 * whole phrase with its own plural forms: other languages inflect more than the number's noun.
 */

/** "1 record waiting to be sent", "3 records waiting to be sent": the badge's and the purpose screen's words for the signed-in technician's outbox. */
export function waitingText(count: number): string {
  return plural(count, { one: '# record waiting to be sent', other: '# records waiting to be sent' });
}

/** Records other employees made on this phone: counted, never sent under someone else's session. */
export function othersText(count: number): string {
  return plural(count, {
    one: '# record of another user stays on this phone until they sign in.',
    other: '# records of other users stay on this phone until they sign in.',
  });
}

/** Records the server refused, on the purpose screen's outbox line. */
export function refusedText(count: number): string {
  return plural(count, { one: '# refused by the server: open to see why', other: '# refused by the server: open to see why' });
}
