/**
 * How the flow names an inspection type (its screens' titles), and the stored values' labels
 * (docs/glossary.md): the value stays the
 * stored English one (sent to the server, kept in the entry), only the label is in the
 * technician's language. Read at render, so in the language shown at that moment; a component
 * passes the `i18n` of its useLingui(), which re-renders it when the language changes.
 */
import type { I18n, MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { InspectionType } from '../../../../common/constants.js';
import { i18n as appI18n } from '../../lib/i18n.js';

const TYPE_LABELS: Readonly<Record<InspectionType, MessageDescriptor>> = {
  Service: msg`Service Inspection`,
  CoF: msg`CoF Measurement`,
};

/** A label from `labels`, or the value as stored when it is not one the product defines. */
function labelOf(labels: Readonly<Record<string, MessageDescriptor>>, value: string, i18n: I18n): string {
  const label = Object.hasOwn(labels, value) ? labels[value] : undefined;
  return label === undefined ? value : i18n._(label);
}

export const inspectionTypeLabel = (type: InspectionType, i18n: I18n = appI18n): string => labelOf(TYPE_LABELS, type, i18n);

// The stored values' labels are the whole app's (lib/value-labels.ts).
export { lineLabel, locationLabel, serviceUpdateLabel } from '../../lib/value-labels.js';
