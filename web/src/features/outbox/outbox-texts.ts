/** "1 record", "3 records". */
export function pluralRecords(count: number): string {
  return `${count} ${count === 1 ? 'record' : 'records'}`;
}

/** The badge's and the purpose screen's words for the signed-in technician's outbox. */
export function waitingText(count: number): string {
  return `${pluralRecords(count)} waiting to be sent`;
}

/** Records other employees made on this phone: counted, never sent under someone else's session. */
export function othersText(count: number): string {
  return count === 1
    ? '1 record of another user stays on this phone until they sign in.'
    : `${count} records of other users stay on this phone until they sign in.`;
}
