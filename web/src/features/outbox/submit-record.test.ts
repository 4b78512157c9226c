import { afterEach, describe, expect, it, vi } from 'vitest';
import type { UploadMetadataInput, UploadResponse } from '../../../../common/schemas/inspection.js';
import { createMemoryOutboxStore } from './outbox-store.js';
import { submitRecord } from './submit-record.js';

const metadata: UploadMetadataInput = {
  clientSubmissionId: '11111111-6a5b-4c3d-8e1f-0a1b2c3d4e5f',
  date: '2026-11-20',
  type: 'CoF',
  divisionRailway: 'FZR/NR',
  section: 'FZR-LDH',
  curveNumber: '42',
  line: 'Single',
  cofValue: '0.28',
};
const photoBytes = new Uint8Array(Array.from({ length: 5000 }, (_, i) => (i * 31) % 256));
const answer: UploadResponse = {
  recordId: 'INS-1',
  fileName: 'INS-1.jpg',
  imageUrl: '/api/inspections/INS-1/image',
  imageHash: 'ab'.repeat(32),
  imageSizeBytes: 5000,
  imageWidth: 1920,
  imageHeight: 1080,
  duplicate: false,
};

afterEach(() => vi.unstubAllGlobals());

describe('Submit Record', () => {
  it("sends the photo's sha256 with its metadata, and keeps it with the record in the outbox", async () => {
    const store = createMemoryOutboxStore();
    const sent: UploadMetadataInput[] = [];
    const outcome = await submitRecord(
      { metadata, photo: new Blob(['abc'], { type: 'image/jpeg' }), ownerEmployeeId: 'TECH001' },
      {
        store,
        upload: async (sentMetadata) => {
          sent.push(sentMetadata);
          expect((await store.list())[0]?.metadata.photoSha256).toBe(sentMetadata.photoSha256);
          return answer;
        },
      },
    );
    expect(outcome).toMatchObject({ kind: 'sent', recordId: 'INS-1' });
    // The published sha256 of "abc" (FIPS 180-2, appendix B.1).
    expect(sent).toEqual([{ ...metadata, photoSha256: 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad' }]);
  });

  it('sends the record without a sha256 where the browser has no WebCrypto (plain HTTP): the server computes it', async () => {
    vi.stubGlobal('crypto', {});
    const sent: UploadMetadataInput[] = [];
    await submitRecord(
      { metadata, photo: new Blob([photoBytes], { type: 'image/jpeg' }), ownerEmployeeId: 'TECH001' },
      { store: createMemoryOutboxStore(), upload: async (sentMetadata) => (sent.push(sentMetadata), answer) },
    );
    expect(sent).toEqual([metadata]);
  });
});
