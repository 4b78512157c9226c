import { t } from '@lingui/core/macro';

/**
 * The counts above a page of the curve and station views (the spec's contract, sections 2, 4,
 * 5 and 8) and the lines' shown names. Functions, so each is read in the language shown when
 * it is called.
 */

export const curvesShown = (first: number, last: number, total: number): string => {
  if (first === 1 && total > last) return t`Showing first ${last} of ${total} curve records`;
  if (total === 1) return t`Showing 1 curve record`;
  if (first === 1 && last === total) return t`Showing all ${total} curve records`;
  const range = rangeText(first, last);
  return t`Showing ${range} of ${total} curve records`;
};

export const stationsShown = (first: number, last: number, total: number): string => {
  if (first === 1 && total > last) return t`Showing first ${last} of ${total} stations`;
  if (total === 1) return t`Showing 1 station`;
  if (first === 1 && last === total) return t`Showing all ${total} stations`;
  const range = rangeText(first, last);
  return t`Showing ${range} of ${total} stations`;
};

const rangeText = (first: number, last: number) => (first === last ? String(first) : `${first}–${last}`);


