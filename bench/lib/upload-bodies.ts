/**
 * The upload scenarios' request bodies, built once: a pool of distinct ~2 MiB camera-sized JPEGs,
 * each in the field app's multipart (`metadata` then `file`) for a CoF record on a demo curve, and
 * the patcher that makes every request new in place (a new clientSubmissionId, the photo's bytes
 * changed after its end marker and its sha256 in the metadata to match).
 */
import { createHash, type Hash, randomUUID } from 'node:crypto';
import { dateInTimeZone } from '../../common/rules/dates.js';
import type { Curve } from '../../common/schemas/curve.js';
import { makePhotoPool } from './jpeg.js';
import { buildMultipart, newBoundary, offsetsOf, patchAt } from './multipart.js';
import { curvePage } from './register.js';
import type { ScenarioContext } from './types.js';

export const UPLOAD_WIDTH = 1920;
export const UPLOAD_HEIGHT = 1080;
export const POOL_SIZE = 8;
export const QUALITY = 90;
const TARGET_BYTES = 2 * 1024 * 1024;
/** A UUID's shape and length: every request overwrites it with a new one, in place. */
const PLACEHOLDER = '00000000-0000-4000-8000-000000000000';
/** The photo's sha256 in the metadata: 64 hex digits, overwritten in place for each request. */
const HASH_PLACEHOLDER = 'feedc0de'.repeat(8);
/** The railway's calendar (the server's default APP_TIMEZONE): the upload's date must not be in the future. */
const APP_TIME_ZONE = 'Asia/Kolkata';

const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(2);

interface PoolEntry {
  body: Buffer;
  /** Where PLACEHOLDER sits: in the metadata's clientSubmissionId and after the JPEG's end marker. */
  offsets: number[];
  /** Where the metadata's photoSha256 sits. */
  hashOffset: number;
  /** sha256 state over the photo's bytes before its UUID: each request's hash costs one block. */
  photoPrefix: Hash;
}

/** A curve of the register to record the uploads on (the demo seed has some). */
export async function firstCurve(ctx: ScenarioContext, cookie: string): Promise<Curve> {
  const [curve] = (await curvePage(ctx, cookie, 'limit=1')).curves;
  if (!curve) throw new Error('GET /api/consolidated-curves?limit=1 returned no curve: the demo seed should have some');
  return curve;
}

/** The request bodies, built once, and the patcher that makes each request new. */
export interface UploadBodies {
  contentType: string;
  nextBody(): Buffer;
  sizes: number[];
  amplitude: number;
}

export async function uploadBodies(ctx: ScenarioContext, label: string, curve: Curve): Promise<UploadBodies> {
  const generating = performance.now();
  const { photos, amplitude } = await makePhotoPool({
    count: POOL_SIZE,
    width: UPLOAD_WIDTH,
    height: UPLOAD_HEIGHT,
    quality: QUALITY,
    targetBytes: TARGET_BYTES,
  });
  const sizes = photos.map((p) => p.length);
  ctx.log(
    `${label}: ${POOL_SIZE} distinct ${UPLOAD_WIDTH}x${UPLOAD_HEIGHT} JPEGs (quality ${QUALITY}, noise ${amplitude}) in ` +
      `${((performance.now() - generating) / 1000).toFixed(1)} s: ${sizes.map((s) => `${mib(s)} MiB`).join(', ')}`,
  );
  const metadata = JSON.stringify({
    clientSubmissionId: PLACEHOLDER,
    // As the app sends it: the server checks the photo it receives against it.
    photoSha256: HASH_PLACEHOLDER,
    date: dateInTimeZone(new Date(), APP_TIME_ZONE),
    type: 'CoF',
    divisionRailway: curve.divisionRailway,
    section: curve.section,
    curveNumber: curve.curveNumber,
    line: curve.line,
    station1: curve.station1,
    station2: curve.station2,
    cofValue: '0.31',
    location: 'Far End',
  });
  const boundary = newBoundary();
  let contentType = '';
  const pool: PoolEntry[] = photos.map((photo) => {
    // The UUID goes after the end marker (decoders stop there; encoders pad there too), so the
    // hash of the bytes before it is worked out once.
    const form = buildMultipart(
      [
        { name: 'metadata', value: metadata },
        {
          name: 'file',
          value: Buffer.concat([photo, Buffer.from(PLACEHOLDER, 'latin1')]),
          filename: 'inspection_image.jpg',
          contentType: 'image/jpeg',
        },
      ],
      boundary,
    );
    contentType = form.contentType;
    const offsets = offsetsOf(form.body, PLACEHOLDER);
    if (offsets.length !== 2) throw new Error(`expected the placeholder UUID twice in an upload body, found it ${offsets.length} times`);
    const [hashOffset, ...more] = offsetsOf(form.body, HASH_PLACEHOLDER);
    if (hashOffset === undefined || more.length > 0) throw new Error('expected the placeholder sha256 once in an upload body');
    return { body: form.body, offsets, hashOffset, photoPrefix: createHash('sha256').update(photo) };
  });
  let turn = 0;
  const nextBody = (): Buffer => {
    const entry = pool[turn++ % pool.length];
    if (!entry) throw new Error('empty photo pool');
    const uuid = randomUUID();
    patchAt(entry.body, entry.offsets, uuid);
    patchAt(entry.body, [entry.hashOffset], entry.photoPrefix.copy().update(uuid, 'latin1').digest('hex'));
    return entry.body;
  };
  return { contentType, nextBody, sizes, amplitude };
}

