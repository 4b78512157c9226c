/* eslint-disable lingui/no-unlocalized-strings -- test data, only imported by tests: no text here reaches a person */
/** Stored entries as the earlier steps leave them, for the review, camera and upload tests. */
import type { SessionEntry } from '../../../../../common/schemas/inspection.js';
import { INSPECTION_ENTRY_KEY } from '../../../lib/storage-keys.js';

export const serviceEntry: SessionEntry = {
  date: '2025-03-04',
  type: 'Service',
  divisionRailway: 'RTM/WR',
  section: 'RTM-NAD',
  curveNumber: 'C-17',
  line: 'Up',
  station1: 'RTM',
  station2: '',
  railwayEngineer: 'A. Sharma',
  sse: 'A. Sharma',
  cofValue: '0.',
  location: '',
  km: '',
  pole1: '',
  pole2: '',
  serviceUpdate: 'part-broken',
  partCategory: 'Pump',
  partItemName: 'Gear pump',
  greaseDepth: '2.5',
  isMachineWorking: 'no',
  clientSubmissionId: '6f1c2a4e-8b3d-4c5e-9f70-1a2b3c4d5e6f',
};

export const cofEntry: SessionEntry = {
  date: '2025-03-04',
  type: 'CoF',
  divisionRailway: 'FZR/NR',
  section: 'FZR-LDH',
  curveNumber: '42',
  line: 'Single',
  station1: '',
  station2: '',
  railwayEngineer: '',
  sse: '',
  cofValue: '0.25',
  location: 'Far End',
  km: '12/4',
  pole1: '7',
  pole2: '8',
  clientSubmissionId: '0c9d8e7f-6a5b-4c3d-8e1f-0a1b2c3d4e5f',
};

export function storeEntry(entry: Partial<SessionEntry>): void {
  sessionStorage.setItem(INSPECTION_ENTRY_KEY, JSON.stringify(entry));
}

export function storedEntry(): unknown {
  const raw = sessionStorage.getItem(INSPECTION_ENTRY_KEY);
  return raw === null ? null : JSON.parse(raw);
}
