import { describe, expect, it, vi } from 'vitest';
import { inspectionEntrySchema, type SessionEntry } from '../../../../../common/schemas/inspection.js';
import { toSessionEntry } from './entry-values.js';
import { newSubmissionId } from './submission-id.js';
import { STORED_SERVICE_ENTRY } from './test-fixtures.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

// The stored entry spells an empty location ''; the contract's input spells it null.
const entryFor = (fields: Partial<SessionEntry>) =>
  inspectionEntrySchema.parse({ ...STORED_SERVICE_ENTRY, location: null, ...fields });
const photographed: SessionEntry = {
  ...STORED_SERVICE_ENTRY,
  serviceUpdate: 'working-fine',
  isMachineWorking: 'yes',
  imageUrl: '/api/image/1',
  fileName: 'a.jpg',
};

describe('saving the entry again after Back', () => {
  it('keeps the id, the later answers and the photo when nothing changed', () => {
    const saved = toSessionEntry(entryFor({}), photographed, () => 'new-id');
    expect(saved).toEqual(photographed);
  });

  it('drops the photo, whose overlay shows the old details, when the curve changed', () => {
    const saved = toSessionEntry(entryFor({ curveNumber: '12' }), photographed, () => 'new-id');
    expect(saved).toMatchObject({ curveNumber: '12', clientSubmissionId: photographed.clientSubmissionId, serviceUpdate: 'working-fine' });
    expect(saved).not.toHaveProperty('imageUrl');
    expect(saved).not.toHaveProperty('fileName');
  });

  it('starts a new submission for an entry of the other type', () => {
    const saved = toSessionEntry(entryFor({ type: 'CoF', cofValue: '0.3' }), photographed, () => 'new-id');
    expect(saved.clientSubmissionId).toBe('new-id');
    expect(saved).not.toHaveProperty('serviceUpdate');
  });
});

describe('newSubmissionId', () => {
  it('makes a v4 UUID even where crypto.randomUUID is missing (plain http)', () => {
    const real = globalThis.crypto;
    vi.stubGlobal('crypto', { getRandomValues: (bytes: Uint8Array<ArrayBuffer>) => real.getRandomValues(bytes) });
    const ids = new Set(Array.from({ length: 20 }, () => newSubmissionId()));
    vi.unstubAllGlobals();
    expect(ids.size).toBe(20);
    for (const id of ids) expect(id).toMatch(UUID);
  });
});
