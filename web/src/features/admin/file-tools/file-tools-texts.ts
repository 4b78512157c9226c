import { plural, t } from '@lingui/core/macro';
import type { FileTaskKind } from '../../../../../common/schemas/file-tools.js';

/**
 * The photo file tools' texts that the task hook says too (its toasts) and the counts, which
 * the card's parts share. Functions, so each is read in the language shown when it is called.
 */

// Indian digit grouping (12,34,567) in both languages: hi-IN writes the same Latin digits.
export const n = (value: number) => value.toLocaleString('en-IN');

/** The original app's texts: the destructive toast's title when a tool fails. */
export function failedTitle(kind: FileTaskKind): string {
  switch (kind) {
    case 'check':
      return t`Status Check Failed`;
    case 'restore':
      return t`Restoration Failed`;
    case 'recreate':
      return t`Recreation Failed`;
  }
}

/** The failure toast's text when the server gives no reason. */
export function failedText(kind: FileTaskKind): string {
  switch (kind) {
    case 'check':
      return t`The photo files could not be checked. Please try again.`;
    case 'restore':
      return t`The photos could not be restored from the backups. Please try again.`;
    case 'recreate':
      return t`The thumbnails and print copies could not be made again. Please try again.`;
  }
}

/** A running tool's figure in words: 'Checked 40 of 1,200 photos'. */
export function progressText(kind: FileTaskKind, done: number, total: number): string {
  const doneCount = n(done);
  const totalCount = n(total);
  switch (kind) {
    case 'check':
      return plural(total, { one: `Checked ${doneCount} of ${totalCount} photo`, other: `Checked ${doneCount} of ${totalCount} photos` });
    case 'restore':
      return plural(total, {
        one: `Restored: looked at ${doneCount} of ${totalCount} photo`,
        other: `Restored: looked at ${doneCount} of ${totalCount} photos`,
      });
    case 'recreate':
      return plural(total, { one: `Recreated: ${doneCount} of ${totalCount} photo`, other: `Recreated: ${doneCount} of ${totalCount} photos` });
  }
}

export function problemsFoundText(count: number): string {
  const records = n(count);
  return plural(count, {
    one: `${records} record has a missing or corrupt photo.`,
    other: `${records} records have a missing or corrupt photo.`,
  });
}

export function pageOfText(page: number, pages: number): string {
  const shown = n(page);
  const all = n(pages);
  return t`Page ${shown} of ${all}`;
}

export function recreatedText(count: number): string {
  const photos = n(count);
  return plural(count, { one: `Recreated derived files for ${photos} photo`, other: `Recreated derived files for ${photos} photos` });
}

export function skippedText(count: number): string {
  const photos = n(count);
  return plural(count, {
    one: `${photos} photo skipped: their original is missing or corrupt`,
    other: `${photos} photos skipped: their original is missing or corrupt`,
  });
}
