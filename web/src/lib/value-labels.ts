import type { I18n, MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { InspectionType, Line, LOCATIONS, ServiceUpdate } from '../../../common/constants.js';
import { i18n } from './i18n.js';

/*
 * The values the product defines are stored and sent in English (docs/glossary.md); only the
 * label a person reads follows the language. A value the app never offered (an old record, a
 * hand-made import) is shown as stored. Read at render time, so a language switch reaches them.
 */

/** The spec's labels of the four service answers; a test holds them to common/constants.ts SERVICE_UPDATE_LABELS. */
export const SERVICE_UPDATE_TEXTS = {
  'working-fine': msg`Machine is working fine`,
  'part-broken': msg`Some part is broken`,
  'part-stolen': msg`Some part is stolen`,
  uninstall: msg`Uninstall the machine`,
} as const satisfies Record<ServiceUpdate, MessageDescriptor>;

export const LINE_TEXTS = { Up: msg`Up`, Down: msg`Down`, Single: msg`Single` } as const satisfies Record<Line, MessageDescriptor>;

export const LOCATION_TEXTS = { 'Far End': msg`Far End`, 'Near End': msg`Near End` } as const satisfies Record<
  (typeof LOCATIONS)[number],
  MessageDescriptor
>;

export const INSPECTION_TYPE_TEXTS = { Service: msg`Service`, CoF: msg`CoF` } as const satisfies Record<InspectionType, MessageDescriptor>;

/** `reader`: a component may pass the i18n of its useLingui(), which re-renders it on a language switch. */
function shown(table: Readonly<Record<string, MessageDescriptor>>, value: string, reader: I18n): string {
  const label = Object.hasOwn(table, value) ? table[value] : undefined;
  return label === undefined ? value : reader._(label);
}

/** Up, Down or Single in the reader's language; a line the product does not define, as stored. */
export const lineLabel = (line: string, reader: I18n = i18n): string => shown(LINE_TEXTS, line, reader);
export const locationLabel = (location: string, reader: I18n = i18n): string => shown(LOCATION_TEXTS, location, reader);
export const inspectionTypeLabel = (type: string, reader: I18n = i18n): string => shown(INSPECTION_TYPE_TEXTS, type, reader);

export const serviceUpdateLabel = (value: string, reader: I18n = i18n): string => shown(SERVICE_UPDATE_TEXTS, value, reader);
