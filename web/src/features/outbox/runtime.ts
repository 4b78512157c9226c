/**
 * The outbox's working parts, loaded after the first screen is drawn (its own chunk): the
 * technician's first load carries only the badge and the loader (docs/architecture.md, 'Budgets').
 */
import type { Drainer, DrainResult } from './drain.js';
import type { OutboxRecord } from './outbox-record.js';
import { outboxStore } from './outbox-store.js';

export { createDrainer } from './drain.js';
export type { Drainer, DrainResult } from './drain.js';
export { outboxStore } from './outbox-store.js';
export { submitRecord } from './submit-record.js';
export type { SubmitOutcome } from './submit-record.js';

export interface OwnerCount {
  /** Every record of this employee still on the device, whatever its state. */
  total: number;
  failed: number;
}

export type OutboxCounts = Readonly<Record<string, OwnerCount>>;

export async function countByOwner(): Promise<OutboxCounts> {
  const counts: Record<string, OwnerCount> = {};
  for (const record of await outboxStore().list()) {
    const count = (counts[record.ownerEmployeeId] ??= { total: 0, failed: 0 });
    count.total += 1;
    if (record.status === 'failed') count.failed += 1;
  }
  return counts;
}

export async function listOwnRecords(owner: string): Promise<OutboxRecord[]> {
  return (await outboxStore().list()).filter((record) => record.ownerEmployeeId === owner);
}

/** A visit this phone recorded that the server does not have yet: it counts for the due list. */
export interface WaitingVisit {
  type: 'Service' | 'CoF';
  section: string;
  curveNumber: string;
  line: string;
  date: string;
  serviceUpdate: string | null;
  cofValue: string | null;
  /** Service only: what the follow-up rule reads (a fix made offline closes its action at once). */
  partCategory: string | null;
  partItemName: string | null;
  isMachineWorking: boolean | null;
}

/** The form keeps the answer as the radio's 'yes' or 'no' until it is sent; the rule reads a yes or no. */
function machineWorkingOf(answer: unknown): boolean | null {
  if (answer === true || answer === 'yes') return true;
  if (answer === false || answer === 'no') return false;
  return null;
}

/** Every record waiting on this device (any technician's: the schedule is the curve's), refused ones aside. */
export async function listWaitingVisits(): Promise<WaitingVisit[]> {
  return (await outboxStore().list())
    .filter((record) => record.status !== 'failed')
    .map(({ metadata: m }) => ({
      type: m.type,
      section: m.section,
      curveNumber: m.curveNumber,
      line: m.line,
      date: m.date,
      serviceUpdate: m.serviceUpdate ?? null,
      cofValue: m.cofValue ?? null,
      partCategory: m.partCategory ?? null,
      partItemName: m.partItemName ?? null,
      isMachineWorking: machineWorkingOf(m.isMachineWorking),
    }));
}

export async function deleteRecord(localId: string): Promise<void> {
  await outboxStore().delete(localId);
}

let active: Drainer | null = null;

/** The drainer of the signed-in technician; 'Send now' goes through it so passes never overlap. */
export function setActiveDrainer(drainer: Drainer | null): void {
  active = drainer;
}

export function activeDrainer(): Drainer | null {
  return active;
}

/** 'Send now': every waiting record of the signed-in technician, backoff ignored, refused ones once more. */
export async function sendNow(): Promise<DrainResult | null> {
  return active === null ? null : active.trigger('send-now');
}
