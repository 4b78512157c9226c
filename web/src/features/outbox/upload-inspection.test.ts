import { afterEach, describe, expect, it, vi } from 'vitest';
import type { UploadMetadataInput } from '../../../../common/schemas/inspection.js';
import { storeUser, technician } from '../../test/users.js';
import { UploadError, uploadInspection } from './upload-inspection.js';

afterEach(() => vi.restoreAllMocks());

const jpegBlob = (bytes = 80_000) => new Blob([new Uint8Array(bytes)], { type: 'image/jpeg' });

const metadata: UploadMetadataInput = {
  clientSubmissionId: '0c9d8e7f-6a5b-4c3d-8e1f-0a1b2c3d4e5f',
  date: '2025-03-04',
  type: 'CoF',
  divisionRailway: 'FZR/NR',
  section: 'FZR-LDH',
  curveNumber: '42',
  line: 'Single',
  cofValue: '0.25',
};

const stored = {
  recordId: 'INS-2025-0001',
  fileName: 'INS-2025-0001.jpg',
  imageUrl: '/api/inspections/INS-2025-0001/image',
  imageHash: 'ab'.repeat(32),
  imageSizeBytes: 81234,
  imageWidth: 1920,
  imageHeight: 1080,
  duplicate: false,
};

/** Replaces fetch and keeps the raw init, since the body is FormData. */
function stubUpload(answer: () => Response | Promise<Response>) {
  const calls: Array<{ url: string; init: RequestInit }> = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      calls.push({ url, init });
      return answer();
    }),
  );
  return calls;
}

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

describe('uploadInspection', () => {
  it('posts multipart with metadata first, then the JPEG as inspection_image.jpg', async () => {
    storeUser(technician);
    const calls = stubUpload(() => json(201, stored));
    await uploadInspection(metadata, jpegBlob(1234));

    expect(calls).toHaveLength(1);
    const { url, init } = calls[0] ?? { url: '', init: {} };
    expect(url).toBe('/api/inspections/upload');
    expect(init.method).toBe('POST');
    expect(init.credentials).toBe('include');
    const form = init.body;
    if (!(form instanceof FormData)) throw new Error('expected a FormData body');
    expect([...form.keys()]).toEqual(['metadata', 'file']);
    expect(JSON.parse(String(form.get('metadata')))).toEqual(metadata);
    const file = form.get('file');
    expect(file).toBeInstanceOf(File);
    expect(file).toMatchObject({ name: 'inspection_image.jpg', type: 'image/jpeg', size: 1234 });
  });

  it('sends X-User-Data and leaves Content-Type to the browser (multipart boundary)', async () => {
    storeUser(technician);
    const calls = stubUpload(() => json(201, stored));
    await uploadInspection(metadata, jpegBlob());
    const headers = new Headers(calls[0]?.init.headers);
    expect(JSON.parse(headers.get('x-user-data') ?? 'null')).toMatchObject({ employeeId: 'TECH001' });
    expect(headers.has('content-type')).toBe(false);
  });

  it('returns the stored record for a new (201) and an already stored (200, duplicate) submission', async () => {
    stubUpload(() => json(201, stored));
    await expect(uploadInspection(metadata, jpegBlob())).resolves.toMatchObject({ recordId: 'INS-2025-0001', fileName: 'INS-2025-0001.jpg' });
    stubUpload(() => json(200, { ...stored, duplicate: true }));
    await expect(uploadInspection(metadata, jpegBlob())).resolves.toMatchObject({ recordId: 'INS-2025-0001', duplicate: true });
  });

  it("logs 'Upload failed ({status}): {body}' and keeps the server message of a 400", async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const body = { code: 'VALIDATION_FAILED', message: 'The request is not valid', fields: { curveNumber: 'Curve number is required' } };
    stubUpload(() => json(400, body));
    const error = await uploadInspection(metadata, jpegBlob()).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(UploadError);
    expect(error).toMatchObject({ status: 400, serverMessage: 'The request is not valid: Curve number is required' });
    expect(log).toHaveBeenCalledWith(`Upload failed (400): ${JSON.stringify(body)}`);
  });

  it("keeps the server's error code, so the outbox can tell a held account from a refused record", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    stubUpload(() => json(403, { code: 'PASSWORD_CHANGE_REQUIRED', message: 'Please choose a new password before you continue' }));
    const error = await uploadInspection(metadata, jpegBlob()).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 403, code: 'PASSWORD_CHANGE_REQUIRED', serverMessage: 'Please choose a new password before you continue' });
  });

  it('keeps no server message for an answer without our error body (e.g. a proxy page)', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    stubUpload(() => new Response('<html>Bad gateway</html>', { status: 502 }));
    const error = await uploadInspection(metadata, jpegBlob()).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 502, serverMessage: null, code: null });
  });

  it('gives the button back when no answer comes in time', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    vi.stubGlobal(
      'fetch',
      vi.fn(
        (_url: string, init: RequestInit) =>
          new Promise((_resolve, reject) => init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')))),
      ),
    );
    await expect(uploadInspection(metadata, jpegBlob(), 20)).rejects.toThrow('aborted');
  });
});
