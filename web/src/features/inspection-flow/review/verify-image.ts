import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { MIN_REAL_IMAGE_BYTES } from '../../../../../common/constants.js';
import { userDataHeaders } from '../../../lib/request-headers.js';

/**
 * The review errors, to the letter of the original app. Descriptors, not texts: the page
 * shows them in the language of the moment it renders, even for a check made earlier.
 */
export const REVIEW_ERRORS = {
  noImage: msg`Cannot submit inspection without a captured image. Please go back and take a photo first.`,
  notFound: (status: number): MessageDescriptor => msg`Image not found on server (${status}). Please go back and capture a new photo.`,
  placeholder: msg`The image appears to be a placeholder. Please go back and capture a real photo.`,
  network: msg`Could not verify image on server. Please check your connection and try again.`,
} as const;

export type ImageCheck = { ok: true } | { ok: false; message: MessageDescriptor };

/**
 * Asks the server (HEAD imageUrl) whether the photo of this entry is really stored and is
 * a real photo: at least MIN_REAL_IMAGE_BYTES, and an image, not the app's HTML page that
 * an unknown non-API path answers with.
 */
export async function verifyUploadedImage(imageUrl: string | undefined): Promise<ImageCheck> {
  if (!imageUrl) return { ok: false, message: REVIEW_ERRORS.noImage };
  let res: Response;
  try {
    res = await fetch(imageUrl, { method: 'HEAD', headers: userDataHeaders(), credentials: 'include', cache: 'no-store' });
  } catch {
    return { ok: false, message: REVIEW_ERRORS.network };
  }
  if (!res.ok) return { ok: false, message: REVIEW_ERRORS.notFound(res.status) };
  const type = res.headers.get('content-type');
  const length = Number(res.headers.get('content-length') ?? '0');
  if ((type !== null && !type.startsWith('image/')) || !Number.isFinite(length) || length < MIN_REAL_IMAGE_BYTES) {
    return { ok: false, message: REVIEW_ERRORS.placeholder };
  }
  return { ok: true };
}

/** The record id in the server's image address, /api/inspections/<recordId>/image. */
export function recordIdFromImageUrl(imageUrl: string): string | null {
  const match = /\/api\/inspections\/([^/?#]+)\/image(?:[?#]|$)/.exec(imageUrl);
  if (!match?.[1]) return null;
  try {
    return decodeURIComponent(match[1]);
  } catch {
    // A malformed %-escape is not an id we can trust.
    return null;
  }
}
