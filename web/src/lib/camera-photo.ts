/**
 * Turning a camera frame or a picked file into the JPEG that is uploaded: checks, decoding,
 * scaling, the burned-in overlay and the encoding. The reasons are the spec's texts
 * (section 8) to the letter.
 */
import type { MessageDescriptor } from '@lingui/core';
import { msg, t } from '@lingui/core/macro';
import { CAMERA_IDEAL_WIDTH, JPEG_QUALITY, MAX_PHOTO_BYTES } from '../../../common/constants.js';
import { drawOverlay } from './camera-overlay.js';
import { i18n } from './i18n.js';

const PHOTO_ERROR_TEXTS = {
  empty: msg`Invalid file: File is empty or corrupted`,
  tooLarge: msg`File too large: Maximum size is 10MB`,
  wrongType: msg`Invalid file type: Only image files are allowed`,
  noCameraElements: msg`Camera capture failed: Unable to access camera elements`,
  noCanvas: msg`Canvas not available`,
  videoNotReady: msg`Video not ready`,
  noImageData: msg`Could not create image data`,
  emptyImageData: msg`Image data is empty`,
} as const satisfies Record<string, MessageDescriptor>;

/** Why a photo cannot be used: one of the spec's reasons. */
export type PhotoProblem = keyof typeof PHOTO_ERROR_TEXTS;

/** The reason in the active language. */
export function photoProblemText(problem: PhotoProblem): string {
  return i18n._(PHOTO_ERROR_TEXTS[problem]);
}

/** A photo that cannot be used; the message is its reason, in the language of the moment it failed. */
export class PhotoError extends Error {
  readonly problem: PhotoProblem;

  constructor(problem: PhotoProblem) {
    super(photoProblemText(problem));
    this.name = 'PhotoError';
    this.problem = problem;
  }
}

/**
 * The alert a technician sees (the original app's "an alert 'Failed to capture image' plus the
 * reason"). The camera-elements reason already names its failure, so it stands alone.
 */
export function photoAlertText(problem: PhotoProblem): string {
  const reason = photoProblemText(problem);
  if (problem === 'noCameraElements') return reason;
  return t`Failed to capture image: ${reason}`;
}

/** The spec's photo rules (section 5): non-empty, at most 10 MB, an image type. */
export function photoProblem(photo: Blob): PhotoProblem | null {
  if (photo.size === 0) return 'empty';
  if (photo.size > MAX_PHOTO_BYTES) return 'tooLarge';
  if (!photo.type.startsWith('image/')) return 'wrongType';
  return null;
}

/** Scales down (never up) so the long side is at most `maxSide`, keeping the aspect ratio. */
export function fitWithin(width: number, height: number, maxSide: number = CAMERA_IDEAL_WIDTH): { width: number; height: number } {
  const longSide = Math.max(width, height);
  if (longSide <= maxSide) return { width, height };
  const scale = maxSide / longSide;
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

function context2d(canvas: HTMLCanvasElement): CanvasRenderingContext2D {
  const ctx = canvas.getContext('2d');
  if (ctx === null) throw new PhotoError('noCanvas');
  return ctx;
}

/** JPEG at the spec's quality 0.8; a missing or empty result is a capture failure. */
export function canvasToJpeg(canvas: HTMLCanvasElement): Promise<Blob> {
  return new Promise((resolve, reject) => {
    canvas.toBlob(
      (blob) => {
        if (blob === null) reject(new PhotoError('noImageData'));
        else if (blob.size === 0) reject(new PhotoError('emptyImageData'));
        else resolve(blob);
      },
      'image/jpeg',
      JPEG_QUALITY,
    );
  });
}

/** Draws the source at the given size, burns in the overlay and encodes the JPEG. */
async function renderPhoto(source: CanvasImageSource, width: number, height: number, lines: readonly string[]): Promise<Blob> {
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const ctx = context2d(canvas);
  ctx.drawImage(source, 0, 0, width, height);
  drawOverlay(ctx, width, height, lines);
  return canvasToJpeg(canvas);
}

// HAVE_CURRENT_DATA: a frame exists to draw. Before that drawImage gives a blank image.
const HAVE_CURRENT_DATA = 2;

/** The current frame of the live preview, at the camera's native size, with the overlay. */
export async function captureVideoFrame(video: HTMLVideoElement | null, lines: readonly string[]): Promise<Blob> {
  if (video === null) throw new PhotoError('noCameraElements');
  if (video.readyState < HAVE_CURRENT_DATA || video.videoWidth === 0 || video.videoHeight === 0) {
    throw new PhotoError('videoNotReady');
  }
  return renderPhoto(video, video.videoWidth, video.videoHeight, lines);
}

interface DecodedImage {
  source: CanvasImageSource;
  width: number;
  height: number;
  release: () => void;
}

async function decodeWithImageElement(file: Blob): Promise<DecodedImage> {
  const url = URL.createObjectURL(file);
  const img = new Image();
  img.src = url;
  try {
    await img.decode();
  } catch {
    URL.revokeObjectURL(url);
    throw new PhotoError('empty');
  }
  return { source: img, width: img.naturalWidth, height: img.naturalHeight, release: () => URL.revokeObjectURL(url) };
}

/** Decodes a picked file; a file that is not a readable picture counts as corrupted. */
async function decodeImage(file: Blob): Promise<DecodedImage> {
  // Older Safari lacks createImageBitmap; an <img> decodes the same files there.
  if (typeof createImageBitmap !== 'function') return decodeWithImageElement(file);
  try {
    const bitmap = await createImageBitmap(file);
    return { source: bitmap, width: bitmap.width, height: bitmap.height, release: () => bitmap.close() };
  } catch {
    throw new PhotoError('empty');
  }
}

/**
 * A photo picked from the device: checked, decoded, scaled so its long side is at most
 * 1920 px (a 12 MP original would be slow to send on a field connection), overlaid and
 * re-encoded as JPEG. Re-encoding also means the server never sees HEIC or PNG.
 */
export async function overlayPickedFile(file: Blob, lines: readonly string[]): Promise<Blob> {
  const problem = photoProblem(file);
  if (problem !== null) throw new PhotoError(problem);
  const image = await decodeImage(file);
  try {
    if (image.width === 0 || image.height === 0) throw new PhotoError('empty');
    const size = fitWithin(image.width, image.height);
    return await renderPhoto(image.source, size.width, size.height, lines);
  } finally {
    image.release();
  }
}

/** The reason to show for anything thrown while making a photo. */
export function photoErrorReason(error: unknown): PhotoProblem {
  if (error instanceof PhotoError) return error.problem;
  // Browsers throw their own errors (e.g. a tainted canvas); the technician needs a retry hint, not a stack.
  return 'noImageData';
}
