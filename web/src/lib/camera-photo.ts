/**
 * Turning a camera frame or a picked file into the JPEG that is uploaded: checks, decoding,
 * scaling, the burned-in overlay and the encoding. The reasons are the spec's texts
 * (section 8) to the letter.
 */
import { CAMERA_IDEAL_WIDTH, JPEG_QUALITY, MAX_PHOTO_BYTES } from '../../../common/constants.js';
import { drawOverlay } from './camera-overlay.js';

export const PHOTO_ERRORS = {
  empty: 'Invalid file: File is empty or corrupted',
  tooLarge: 'File too large: Maximum size is 10MB',
  wrongType: 'Invalid file type: Only image files are allowed',
  noCameraElements: 'Camera capture failed: Unable to access camera elements',
  noCanvas: 'Canvas not available',
  videoNotReady: 'Video not ready',
  noImageData: 'Could not create image data',
  emptyImageData: 'Image data is empty',
} as const;

/** A photo that cannot be used; the message is one of PHOTO_ERRORS. */
export class PhotoError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PhotoError';
  }
}

/**
 * The alert a technician sees (the original app's "an alert 'Failed to capture image' plus the
 * reason"). The camera-elements reason already names its failure, so it stands alone.
 */
export function photoAlertText(reason: string): string {
  if (reason === PHOTO_ERRORS.noCameraElements) return reason;
  return `Failed to capture image: ${reason}`;
}

/** The spec's photo rules (section 5): non-empty, at most 10 MB, an image type. */
export function photoProblem(photo: Blob): string | null {
  if (photo.size === 0) return PHOTO_ERRORS.empty;
  if (photo.size > MAX_PHOTO_BYTES) return PHOTO_ERRORS.tooLarge;
  if (!photo.type.startsWith('image/')) return PHOTO_ERRORS.wrongType;
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
  if (ctx === null) throw new PhotoError(PHOTO_ERRORS.noCanvas);
  return ctx;
}

/** JPEG at the spec's quality 0.8; a missing or empty result is a capture failure. */
export function canvasToJpeg(canvas: HTMLCanvasElement): Promise<Blob> {
  return new Promise((resolve, reject) => {
    canvas.toBlob(
      (blob) => {
        if (blob === null) reject(new PhotoError(PHOTO_ERRORS.noImageData));
        else if (blob.size === 0) reject(new PhotoError(PHOTO_ERRORS.emptyImageData));
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
  if (video === null) throw new PhotoError(PHOTO_ERRORS.noCameraElements);
  if (video.readyState < HAVE_CURRENT_DATA || video.videoWidth === 0 || video.videoHeight === 0) {
    throw new PhotoError(PHOTO_ERRORS.videoNotReady);
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
    throw new PhotoError(PHOTO_ERRORS.empty);
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
    throw new PhotoError(PHOTO_ERRORS.empty);
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
    if (image.width === 0 || image.height === 0) throw new PhotoError(PHOTO_ERRORS.empty);
    const size = fitWithin(image.width, image.height);
    return await renderPhoto(image.source, size.width, size.height, lines);
  } finally {
    image.release();
  }
}

/** The reason to show for anything thrown while making a photo. */
export function photoErrorReason(error: unknown): string {
  if (error instanceof PhotoError) return error.message;
  // Browsers throw their own errors (e.g. a tainted canvas); the technician needs a retry hint, not a stack.
  return PHOTO_ERRORS.noImageData;
}
