/**
 * How the flow shows the values the product defines (docs/glossary.md): the value stays the
 * stored English one (sent to the server, kept in the entry), only the label is in the
 * technician's language. Read at render, so in the language shown at that moment; a component
 * passes the `i18n` of its useLingui(), which re-renders it when the language changes.
 */
import type { I18n, MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { InspectionType, Line, ServiceUpdate } from '../../../../common/constants.js';
import { i18n as appI18n } from '../../lib/i18n.js';

const TYPE_LABELS: Readonly<Record<InspectionType, MessageDescriptor>> = {
  Service: msg`Service Inspection`,
  CoF: msg`CoF Measurement`,
};

const LINE_LABELS: Readonly<Record<Line, MessageDescriptor>> = {
  Up: msg`Up`,
  Down: msg`Down`,
  Single: msg`Single`,
};

const LOCATION_LABELS: Readonly<Record<string, MessageDescriptor>> = {
  'Far End': msg`Far End`,
  'Near End': msg`Near End`,
};

const SERVICE_UPDATE_LABELS: Readonly<Record<ServiceUpdate, MessageDescriptor>> = {
  'working-fine': msg`Machine is working fine`,
  'part-broken': msg`Some part is broken`,
  'part-stolen': msg`Some part is stolen`,
  uninstall: msg`Uninstall the machine`,
};

/** A label from `labels`, or the value as stored when it is not one the product defines. */
function labelOf(labels: Readonly<Record<string, MessageDescriptor>>, value: string, i18n: I18n): string {
  const label = Object.hasOwn(labels, value) ? labels[value] : undefined;
  return label === undefined ? value : i18n._(label);
}

export const inspectionTypeLabel = (type: InspectionType, i18n: I18n = appI18n): string => labelOf(TYPE_LABELS, type, i18n);

/** Up, Down or Single in the active language; a line code the product does not define, as stored. */
export const lineLabel = (line: string, i18n: I18n = appI18n): string => labelOf(LINE_LABELS, line, i18n);

export const locationLabel = (location: string, i18n: I18n = appI18n): string => labelOf(LOCATION_LABELS, location, i18n);

export const serviceUpdateLabel = (update: ServiceUpdate, i18n: I18n = appI18n): string => labelOf(SERVICE_UPDATE_LABELS, update, i18n);
