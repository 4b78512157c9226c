import type { FileTaskKind, PhotoProblem } from '../../../../../common/schemas/file-tools.js';

const n = (value: number) => value.toLocaleString('en-IN');
const photos = (value: number) => `${n(value)} ${value === 1 ? 'photo' : 'photos'}`;
const records = (value: number) => `${n(value)} ${value === 1 ? 'record' : 'records'}`;

/** Every word of the photo file tools card (the toast titles are the spec's, section 8). */
export const FILE_TOOLS_TEXTS = {
  title: 'Photo Files',
  explanation:
    "Check that every record's photo is on the server and intact; restore damaged or missing photos from the backups; make thumbnails and print copies again.",

  start: { check: 'Check Files', restore: 'Restore from Backups', recreate: 'Recreate Derived Files' } satisfies Record<FileTaskKind, string>,
  busy: { check: 'Checking...', restore: 'Restoring...', recreate: 'Recreating...' } satisfies Record<FileTaskKind, string>,

  /** The original app's texts: the destructive toast's title when a tool fails. */
  failedTitle: {
    check: 'Status Check Failed',
    restore: 'Restoration Failed',
    recreate: 'Recreation Failed',
  } satisfies Record<FileTaskKind, string>,
  /** The toast's text when the server gives no reason. */
  failedText: {
    check: 'The photo files could not be checked. Please try again.',
    restore: 'The photos could not be restored from the backups. Please try again.',
    recreate: 'The thumbnails and print copies could not be made again. Please try again.',
  } satisfies Record<FileTaskKind, string>,

  // While a tool runs
  progress: {
    check: (done: number, total: number) => `Checked ${n(done)} of ${photos(total)}`,
    restore: (done: number, total: number) => `Restored: looked at ${n(done)} of ${photos(total)}`,
    recreate: (done: number, total: number) => `Recreated: ${n(done)} of ${photos(total)}`,
  } satisfies Record<FileTaskKind, (done: number, total: number) => string>,
  counting: 'Counting the photos...',
  mayLeave: 'The server carries on if you leave this page.',

  // Status check
  checkResultTitle: 'Status check',
  recordsWithPhotos: 'Records with photos',
  missing: 'Missing',
  corrupt: 'Corrupt',
  orphans: 'Unused photo files',
  orphansHint: 'Photo files no record uses, older than an hour.',
  checkedAt: 'Checked at',
  allClear: 'All photos are present and intact.',
  problemsFound: (count: number) => `${records(count)} ${count === 1 ? 'has' : 'have'} a missing or corrupt photo.`,
  problemListTitle: 'Records with a photo problem',
  problem: { missing: 'Missing', corrupt: 'Corrupt' } satisfies Record<PhotoProblem, string>,
  recordId: 'Record ID',
  problemColumn: 'Problem',
  date: 'Date',
  division: 'Division',
  curve: 'Curve',
  technician: 'Technician',
  none: '–',
  pageOf: (page: number, pages: number) => `Page ${n(page)} of ${n(pages)}`,
  pagesLabel: 'Pages of the records',
  previous: 'Previous',
  next: 'Next',
  loadingPage: 'Loading the records...',
  pageFailed: 'Failed to load the records',
  tryAgain: 'Try Again',

  // Restore
  restoreResultTitle: 'Restored from backups',
  restored: 'Restored',
  couldNotRestore: 'Could not restore',
  stillMissing: 'Still missing',
  stillMissingHint: 'Still-missing photos are not in any backup: they cannot be restored and stay listed as missing.',
  checkAgainHint: 'Run Check Files again to see which records still have a photo problem.',
  finishedAt: 'Finished at',

  // Recreate
  recreateResultTitle: 'Derived files made again',
  recreated: (count: number) => `Recreated derived files for ${photos(count)}`,
  skipped: (count: number) => `${photos(count)} skipped: their original is missing or corrupt`,

  /** Said once to a screen reader when a tool finishes. */
  announce: {
    check: 'Status check finished.',
    restore: 'Restoration finished.',
    recreate: 'Derived files made again.',
  } satisfies Record<FileTaskKind, string>,
} as const;
