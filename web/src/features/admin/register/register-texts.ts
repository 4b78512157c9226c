import type { MessageDescriptor } from '@lingui/core';
import { msg, t } from '@lingui/core/macro';
import { type Line, LINES } from '../../../../../common/constants.js';
import { i18n } from '../../../lib/i18n.js';

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

const LINE_LABELS: Readonly<Record<Line, MessageDescriptor>> = { Up: msg`Up`, Down: msg`Down`, Single: msg`Single` };
const isLine = (value: string): value is Line => (LINES as readonly string[]).includes(value);

/** A curve's line as shown: stored in English (Up, Down, Single), said in the reader's language. */
export const lineText = (line: string): string => (isLine(line) ? i18n._(LINE_LABELS[line]) : line);
