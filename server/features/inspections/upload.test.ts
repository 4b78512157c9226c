import { randomUUID } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { inspectionLogs } from '../../db/schema.js';
import { buildTestApp, type TestApp } from '../../test/build-test-app.js';
import { ADMIN, CLIENT_FZR, CLIENT_RTM, TECHNICIAN, createAndSignIn } from '../../test/factories.js';
import { allPhotosDecoded, photoDecoded } from '../../test/inspections.js';
import sharp from 'sharp';
import { makeJpeg, serviceVisitMetadata, sha256, uploadForm } from '../../test/photos.js';

let t: TestApp;
let technician: string;
let otherTechnician: string;
let admin: string;
let clientRtm: string;
let clientFzr: string;
let photo: Buffer;

const serviceMetadata = (overrides: Record<string, unknown> = {}) =>
  serviceVisitMetadata({ technicianId: 'ADM9999', technicianName: 'Someone Else', latitude: 23.3315, longitude: 75.0367, accuracy: 8, ...overrides });

const cofMetadata = (overrides: Record<string, unknown> = {}) => ({
  date: '2026-11-20',
  type: 'CoF',
  divisionRailway: 'FZR/NR',
  section: 'FZR-JUC',
  curveNumber: '3',
  line: 'Single',
  cofValue: '0.28',
  location: 'Far End',
  km: '412/6',
  pole1: '12',
  pole2: '14',
  clientSubmissionId: randomUUID(),
  ...overrides,
});

const upload = (cookie: string | undefined, form: FormData | string, contentType?: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/inspections/upload',
    headers: { ...(cookie ? { cookie } : {}), ...(contentType ? { 'content-type': contentType } : {}) },
    payload: form,
  });

async function countRows(): Promise<number> {
  const [row] = await t.database.db.select({ n: sql<number>`count(*)::int` }).from(inspectionLogs);
  return row?.n ?? 0;
}

async function countBlobs(): Promise<number> {
  const root = (t.blobs as unknown as { root: string }).root;
  const files = await readdir(root, { recursive: true }).catch(() => []);
  return files.filter((f) => /[0-9a-f]{64}$/.test(path.basename(String(f)))).length;
}

/** Photo writes begun and not finished or removed (the store's incoming-*.tmp). */
async function stagedWrites(): Promise<string[]> {
  // The photo worker writes derived files through the same staging: let it finish first.
  await allPhotosDecoded(t);
  const root = (t.blobs as unknown as { root: string }).root;
  return (await readdir(root).catch(() => [])).filter((name) => name.startsWith('incoming-'));
}

beforeAll(async () => {
  t = await buildTestApp();
  ({ technician, otherTechnician, admin, clientRtm, clientFzr } = await createAndSignIn(t, {
    technician: { ...TECHNICIAN, name: 'Ravi Meena' },
    otherTechnician: { ...TECHNICIAN, employeeId: 'TEC2', name: 'Suresh Yadav' },
    admin: ADMIN,
    clientRtm: CLIENT_RTM,
    clientFzr: CLIENT_FZR,
  }));
  photo = await makeJpeg();
});
afterAll(() => t.close());

describe('POST /api/inspections/upload', () => {
  it('stores a Service record with its photo, taking the technician from the session', async () => {
    const metadata = serviceMetadata();
    const response = await upload(technician, uploadForm(metadata, photo));
    expect(response.statusCode).toBe(201);
    const answer = response.json();
    expect(answer).toMatchObject({
      recordId: expect.stringMatching(/^INS-20261120-[0-9A-Z]{6}$/),
      imageHash: sha256(photo),
      imageSizeBytes: photo.length,
      imageWidth: 1920,
      imageHeight: 1080,
      duplicate: false,
    });
    expect(answer.fileName).toBe(`inspection_${answer.recordId}.jpg`);
    expect(answer.imageUrl).toBe(`/api/inspections/${answer.recordId}/image`);

    const list = await t.app.inject({ method: 'GET', url: '/api/inspections', headers: { cookie: admin } });
    const log = list.json().logs.find((l: { recordId: string }) => l.recordId === answer.recordId);
    expect(log).toMatchObject({
      technicianId: 'TEC1',
      technicianName: 'Ravi Meena',
      type: 'Service',
      divisionRailway: 'RTM/WR',
      serviceUpdate: 'part-broken',
      partCategory: 'Pump Assembly',
      partItemName: 'Gear pump',
      greaseDepth: '4.5',
      isMachineWorking: false,
      cofValue: null,
      latitude: 23.3315,
      imageSizeBytes: photo.length,
      imageHash: sha256(photo),
    });

    const image = await t.app.inject({ method: 'GET', url: answer.imageUrl, headers: { cookie: technician } });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/jpeg');
    expect(sha256(image.rawPayload)).toBe(sha256(photo));
  });

  it('stores a CoF record', async () => {
    const response = await upload(technician, uploadForm(cofMetadata(), photo));
    expect(response.statusCode).toBe(201);
    const list = await t.app.inject({ method: 'GET', url: '/api/inspections', headers: { cookie: admin } });
    expect(list.json().logs[0]).toMatchObject({ type: 'CoF', cofValue: '0.28', location: 'Far End', line: 'Single', serviceUpdate: null });
  });

  it('answers the first record again for a replayed clientSubmissionId and stores nothing new', async () => {
    const metadata = cofMetadata();
    const first = await upload(technician, uploadForm(metadata, photo));
    const rowsBefore = await countRows();
    const blobsBefore = await countBlobs();
    const again = await upload(technician, uploadForm(metadata, await makeJpeg(1280, 720, 7)));
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ recordId: first.json().recordId, duplicate: true, imageHash: sha256(photo) });
    expect(await countRows()).toBe(rowsBefore);
    expect(await countBlobs()).toBe(blobsBefore);
  });

  it('refuses another technician replaying someone else\'s clientSubmissionId', async () => {
    const metadata = cofMetadata();
    expect((await upload(technician, uploadForm(metadata, photo))).statusCode).toBe(201);
    const stolen = await upload(otherTechnician, uploadForm(metadata, photo));
    expect(stolen.statusCode).toBe(409);
  });

  it('answers HEAD on the image URL with its length and type', async () => {
    const { imageUrl } = (await upload(technician, uploadForm(serviceMetadata(), photo))).json();
    const head = await t.app.inject({ method: 'HEAD', url: imageUrl, headers: { cookie: technician } });
    expect(head.statusCode).toBe(200);
    expect(Number(head.headers['content-length'])).toBe(photo.length);
    expect(head.headers['content-type']).toBe('image/jpeg');
    expect(head.rawPayload.length).toBe(0);
  });

  it('serves a photo only to those allowed to see its record', async () => {
    const { imageUrl } = (await upload(technician, uploadForm(serviceMetadata(), photo))).json();
    const as = (cookie?: string) => t.app.inject({ method: 'GET', url: imageUrl, headers: cookie ? { cookie } : {} });
    expect((await as(technician)).statusCode).toBe(200);
    expect((await as(admin)).statusCode).toBe(200);
    expect((await as(clientRtm)).statusCode).toBe(200);
    expect((await as(clientFzr)).statusCode).toBe(404);
    expect((await as(otherTechnician)).statusCode).toBe(404);
    expect((await as(undefined)).statusCode).toBe(401);
  });
});

describe('bad uploads are refused and leave nothing behind', () => {
  let rows: number;
  let blobs: number;
  beforeEach(async () => {
    rows = await countRows();
    blobs = await countBlobs();
  });
  const nothingStored = async () => {
    expect(await countRows()).toBe(rows);
    expect(await countBlobs()).toBe(blobs);
    expect(await stagedWrites()).toEqual([]);
  };

  it('names each missing field with the form\'s messages', async () => {
    const response = await upload(
      technician,
      uploadForm(serviceMetadata({ divisionRailway: '', section: '', curveNumber: '', line: undefined }), photo),
    );
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toMatchObject({
      divisionRailway: 'Division/Railway is required',
      section: 'Section is required',
      curveNumber: 'Curve number is required',
      line: 'Please select a line',
    });
    await nothingStored();
  });

  it('names a missing CoF value together with the other missing fields', async () => {
    const response = await upload(technician, uploadForm(cofMetadata({ line: '', cofValue: '0.', section: '' }), photo));
    expect(response.json().fields).toEqual({
      section: 'Section is required',
      line: 'Please select a line',
      cofValue: 'CoF value is required',
    });
    await nothingStored();
  });

  it('refuses a CoF record without a CoF value, or with one not in the form 0.XX', async () => {
    const missing = await upload(technician, uploadForm(cofMetadata({ cofValue: '0.' }), photo));
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toBe('cofValue: CoF value is required');
    const wrong = await upload(technician, uploadForm(cofMetadata({ cofValue: '1.25' }), photo));
    expect(wrong.json().message).toBe('cofValue: CoF value must be in the form 0.XX');
    await nothingStored();
  });

  it('refuses a wrong line, an unknown division and a grease depth out of range', async () => {
    expect((await upload(technician, uploadForm(serviceMetadata({ line: 'Sideways' }), photo))).json().message).toBe('line: Please select a line');
    expect((await upload(technician, uploadForm(serviceMetadata({ divisionRailway: 'XYZ/QQ' }), photo))).json().fields.divisionRailway).toMatch(/^Division\/Railway must be one of/);
    expect((await upload(technician, uploadForm(serviceMetadata({ greaseDepth: '12' }), photo))).json().fields.greaseDepth).toBe('Grease depth must be between 0 and 10 cm');
    expect((await upload(technician, uploadForm(serviceMetadata({ greaseDepth: '4.55' }), photo))).json().fields.greaseDepth).toBe('Grease depth must be in steps of 0.1');
    await nothingStored();
  });

  it('refuses a Service record without its update, part or machine answer', async () => {
    const response = await upload(
      technician,
      uploadForm(serviceMetadata({ serviceUpdate: 'part-stolen', partCategory: '', partItemName: null, isMachineWorking: null }), photo),
    );
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toMatchObject({
      partCategory: 'Please select a part category',
      partItemName: 'Please select an item name',
      isMachineWorking: 'Please answer: Is the Machine working?',
    });
    await nothingStored();
  });

  it('refuses a date in the future and a missing clientSubmissionId', async () => {
    const future = await upload(technician, uploadForm(serviceMetadata({ date: '2099-01-01' }), photo));
    expect(future.statusCode).toBe(400);
    expect(future.json().message).toMatch(/^date: Date 2099-01-01 is in the future/);
    const noId = await upload(technician, uploadForm(serviceMetadata({ clientSubmissionId: undefined }), photo));
    expect(noId.json().fields.clientSubmissionId).toBe('clientSubmissionId must be a UUID');
    await nothingStored();
  });

  it('refuses a text file renamed .jpg', async () => {
    const text = Buffer.from('These are not the pixels you are looking for.\n'.repeat(400));
    const response = await upload(technician, uploadForm(serviceMetadata(), text, 'inspection_image.jpg', 'image/jpeg'));
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'PHOTO_WRONG_TYPE', message: 'Invalid file type: Only image files are allowed' });
    await nothingStored();
  });

  it('refuses a truncated JPEG', async () => {
    const truncated = photo.subarray(0, Math.floor(photo.length * 0.6));
    const response = await upload(technician, uploadForm(serviceMetadata(), truncated));
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('PHOTO_INVALID');
    expect(response.json().message).toMatch(/^Invalid file: File is empty or corrupted/);
    await nothingStored();
  });

  it('refuses an empty file and a missing file', async () => {
    const empty = await upload(technician, uploadForm(serviceMetadata(), Buffer.alloc(0)));
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toMatch(/^Invalid file: File is empty or corrupted|^file:/);
    const missing = await upload(technician, uploadForm(serviceMetadata()));
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toBe('file: the photo (file) is required');
    await nothingStored();
  });

  it('answers 413 for a photo of 10 MB + 1 byte', async () => {
    const huge = Buffer.alloc(10 * 1024 * 1024 + 1, 0x41);
    photo.copy(huge, 0, 0, 64);
    const response = await upload(technician, uploadForm(serviceMetadata(), huge));
    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({ code: 'PHOTO_TOO_LARGE', message: 'File too large: Maximum size is 10MB' });
    await nothingStored();
  });

  it('refuses metadata that is not JSON, and a body that is not multipart', async () => {
    const notJson = await upload(technician, uploadForm('{"type": "CoF",', photo));
    expect(notJson.json().message).toBe('metadata: metadata is not valid JSON');
    const json = await t.app.inject({ method: 'POST', url: '/api/inspections/upload', headers: { cookie: technician }, payload: serviceMetadata() });
    expect(json.statusCode).toBe(415);
    await nothingStored();
  });

  it('refuses Clients and anonymous callers', async () => {
    expect((await upload(clientRtm, uploadForm(serviceMetadata(), photo))).statusCode).toBe(403);
    expect((await upload(undefined, uploadForm(serviceMetadata(), photo))).statusCode).toBe(401);
    await nothingStored();
  });

  it('removes the stored photo when the record cannot be written', async () => {
    await t.database.db.execute(sql`alter table inspection_logs add constraint test_block check (section <> 'BLOCKED')`);
    try {
      const fresh = await makeJpeg(800, 600, 99);
      const response = await upload(technician, uploadForm(serviceMetadata({ section: 'BLOCKED' }), fresh));
      expect(response.statusCode).toBe(500);
      expect(response.json().message).toBe('Something went wrong on the server');
      await nothingStored();
    } finally {
      await t.database.db.execute(sql`alter table inspection_logs drop constraint test_block`);
    }
  });
});

describe('the photo on its way: its sha256, its header, its decode after the commit', () => {
  const listed = async (recordId: string) => {
    const response = await t.app.inject({ method: 'GET', url: `/api/inspections?q=${recordId}`, headers: { cookie: admin } });
    return response.json().logs[0];
  };

  it('stores a photo whose sha256 the phone sent (in any case) and decodes it after the commit', async () => {
    const fresh = await makeJpeg(1920, 1080, 501);
    const response = await upload(technician, uploadForm(serviceMetadata({ photoSha256: sha256(fresh).toUpperCase() }), fresh));
    expect(response.statusCode, response.body).toBe(201);
    const { recordId, imageHash } = response.json();
    expect(imageHash).toBe(sha256(fresh));
    expect(await photoDecoded(t, recordId)).toBe('ready');
    expect(await listed(recordId)).toMatchObject({ recordId, photoState: 'ready', imageWidth: 1920, imageHeight: 1080 });
    // The derived files were made by the worker, from the one decode.
    expect(await t.blobs.readVariant(imageHash, 'thumb-320.webp')).not.toBeNull();
    expect(await t.blobs.readVariant(imageHash, 'print-1200.jpg')).not.toBeNull();
  });

  it('refuses a photo that does not match the sha256 the phone sent, and stores nothing', async () => {
    const rows = await countRows();
    const blobsBefore = await countBlobs();
    const fresh = await makeJpeg(1920, 1080, 502);
    const damaged = Buffer.from(fresh);
    const middle = Math.floor(damaged.length / 2);
    damaged.writeUInt8(damaged.readUInt8(middle) ^ 0xff, middle);
    const response = await upload(technician, uploadForm(serviceMetadata({ photoSha256: sha256(fresh) }), damaged));
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'PHOTO_HASH_MISMATCH', fields: { file: 'The photo does not match its sha256' } });
    expect(response.json().message).toContain(sha256(fresh));
    expect(await countRows()).toBe(rows);
    expect(await countBlobs()).toBe(blobsBefore);
    expect(await stagedWrites()).toEqual([]);
    // The same record sent again whole is stored.
    expect((await upload(technician, uploadForm(serviceMetadata({ photoSha256: sha256(fresh) }), fresh))).statusCode).toBe(201);
  });

  it("accepts a record queued in a phone's outbox before phones sent the hash, computing it", async () => {
    const fresh = await makeJpeg(1280, 720, 506);
    const metadata = serviceMetadata();
    expect(metadata).not.toHaveProperty('photoSha256');
    const response = await upload(technician, uploadForm(metadata, fresh));
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toMatchObject({ imageHash: sha256(fresh), imageSizeBytes: fresh.length });
    expect((await t.blobs.read(sha256(fresh))).equals(fresh)).toBe(true);
  });

  it('refuses a photoSha256 that is not 64 hex digits', async () => {
    const response = await upload(technician, uploadForm(serviceMetadata({ photoSha256: 'abc' }), photo));
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toEqual({ photoSha256: 'photoSha256 must be the sha256 of the photo as 64 hex digits' });
  });

  it('takes the photo before its metadata too', async () => {
    const fresh = await makeJpeg(640, 480, 503);
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(fresh)], { type: 'image/jpeg' }), 'inspection_image.jpg');
    form.append('metadata', JSON.stringify(serviceMetadata({ photoSha256: sha256(fresh) })));
    const response = await upload(technician, form);
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toMatchObject({ imageHash: sha256(fresh), imageWidth: 640, imageHeight: 480 });
  });

  it('answers a replay from its metadata without storing the photo sent with it', async () => {
    const metadata = serviceMetadata();
    const first = await upload(technician, uploadForm(metadata, photo));
    expect(first.statusCode).toBe(201);
    const blobsBefore = await countBlobs();
    const other = await makeJpeg(800, 600, 504);
    const again = await upload(technician, uploadForm(metadata, other));
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ recordId: first.json().recordId, duplicate: true, imageHash: sha256(photo) });
    expect(await countBlobs()).toBe(blobsBefore);
    expect(await t.blobs.exists(sha256(other))).toBe(false);
    expect(await stagedWrites()).toEqual([]);
  });

  it('flags a record whose photo passes the header checks but cannot be decoded', async () => {
    // A photo cut short on the way and closed with an end marker: its header is whole.
    const fresh = await makeJpeg(1920, 1080, 505);
    const broken = Buffer.concat([fresh.subarray(0, Math.floor(fresh.length * 0.3)), Buffer.from([0xff, 0xd9])]);
    const response = await upload(technician, uploadForm(serviceMetadata(), broken));
    expect(response.statusCode, response.body).toBe(201);
    const { recordId, imageHash } = response.json();
    expect(await photoDecoded(t, recordId)).toBe('undecodable');
    expect(await listed(recordId)).toMatchObject({ recordId, photoState: 'undecodable' });
    // Stored as sent (it is the evidence), but nothing is made from it.
    expect(await t.blobs.exists(imageHash)).toBe(true);
    const thumbnail = await t.app.inject({ method: 'GET', url: `/api/inspections/${recordId}/thumbnail`, headers: { cookie: admin } });
    expect(thumbnail.statusCode).toBe(404);
  });

  it("reads a camera JPEG's size and turn from segments well past its first 64 KB", async () => {
    // Stored sideways with an EXIF turn (orientation 6), behind 192 KB of other segments, as a
    // camera's colour profile and maker notes can be: the record keeps the upright size.
    const sideways = await sharp(await makeJpeg(640, 480, 606)).withMetadata({ orientation: 6 }).jpeg().toBuffer();
    const segment = Buffer.alloc(2 + 65535);
    segment.writeUInt16BE(0xffef, 0); // APP15, which readers skip
    segment.writeUInt16BE(65535, 2);
    const camera = Buffer.concat([sideways.subarray(0, 2), segment, segment, segment, sideways.subarray(2)]);
    const response = await upload(technician, uploadForm(serviceMetadata(), camera));
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toMatchObject({ imageWidth: 480, imageHeight: 640, imageSizeBytes: camera.length });
  });

  it('refuses a file that is not an image at its first bytes, and a PNG whose size cannot be read', async () => {
    const rows = await countRows();
    const pdf = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(3 * 1024 * 1024, 0x20)]);
    const notImage = await upload(technician, uploadForm(serviceMetadata(), pdf, 'inspection_image.jpg'));
    expect(notImage.statusCode).toBe(400);
    expect(notImage.json().code).toBe('PHOTO_WRONG_TYPE');
    const pngSignatureOnly = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(100)]);
    const noSize = await upload(technician, uploadForm(serviceMetadata(), pngSignatureOnly, 'inspection_image.png', 'image/png'));
    expect(noSize.statusCode).toBe(400);
    expect(noSize.json()).toMatchObject({ code: 'PHOTO_INVALID', message: 'Invalid file: File is empty or corrupted (its dimensions cannot be read)' });
    expect(await countRows()).toBe(rows);
    expect(await stagedWrites()).toEqual([]);
  });
});

describe('GET /api/inspections', () => {
  it('pages newest first and bounds the page size', async () => {
    const all = (await t.app.inject({ method: 'GET', url: '/api/inspections?limit=500', headers: { cookie: admin } })).json();
    expect(all.total).toBe(all.logs.length);
    const submitted = all.logs.map((l: { submittedAt: string }) => l.submittedAt);
    expect([...submitted].sort().reverse()).toEqual(submitted);
    const page = (await t.app.inject({ method: 'GET', url: '/api/inspections?limit=2&offset=1', headers: { cookie: admin } })).json();
    expect(page.logs.map((l: { recordId: string }) => l.recordId)).toEqual(all.logs.slice(1, 3).map((l: { recordId: string }) => l.recordId));
    const tooMany = await t.app.inject({ method: 'GET', url: '/api/inspections?limit=501', headers: { cookie: admin } });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().message).toBe('limit: limit must be at most 500');
  });

  it('gives a Client only their division and a Technician only their own records', async () => {
    await upload(otherTechnician, uploadForm(cofMetadata(), photo));
    const rtm = (await t.app.inject({ method: 'GET', url: '/api/inspections?limit=500', headers: { cookie: clientRtm } })).json();
    expect(rtm.logs.length).toBeGreaterThan(0);
    expect(rtm.logs.every((l: { divisionRailway: string }) => l.divisionRailway === 'RTM/WR')).toBe(true);
    const own = (await t.app.inject({ method: 'GET', url: '/api/inspections?limit=500', headers: { cookie: otherTechnician } })).json();
    expect(own.logs.length).toBe(1);
    expect(own.logs[0].technicianId).toBe('TEC2');
  });
});
