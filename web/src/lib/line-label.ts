import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { type Line, LINES } from '../../../common/constants.js';
import { i18n } from './i18n.js';

const LINE_LABELS: Readonly<Record<Line, MessageDescriptor>> = {
  Up: msg`Up`,
  Down: msg`Down`,
  Single: msg`Single`,
};

const isLine = (value: string): value is Line => (LINES as readonly string[]).includes(value);

/**
 * A curve's line (Up, Down, Single) as the reader's language names it. The value stays English
 * (stored, sent, in URLs); anything else (a register's own code) is shown as it is stored.
 */
export function lineLabel(line: string): string {
  return isLine(line) ? i18n._(LINE_LABELS[line]) : line;
}
