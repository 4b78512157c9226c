import { SERVICE_UPDATES } from '../../../../../common/constants.js';
import type { ServiceDetails, SessionEntry } from '../../../../../common/schemas/inspection.js';

/** Text everywhere, '' for "nothing chosen", as radios, selects and number inputs give it. */
export interface ServiceFormValues {
  serviceUpdate: string;
  partCategory: string;
  partItemName: string;
  greaseDepth: string;
}

/** The answers already stored (the user came Back from review), or an empty form. */
export function serviceValuesFrom(entry: SessionEntry | null): ServiceFormValues {
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  return {
    serviceUpdate: SERVICE_UPDATES.find((u) => u === entry?.serviceUpdate) ?? '',
    partCategory: text(entry?.partCategory),
    partItemName: text(entry?.partItemName),
    greaseDepth: text(entry?.greaseDepth),
  };
}

export type ServiceEntryPatch = Pick<SessionEntry, 'serviceUpdate' | 'partCategory' | 'partItemName' | 'greaseDepth'>;

/** The part of the session entry this step owns; greaseDepth is kept as text like the rest. */
export function serviceEntryPatch(details: ServiceDetails): ServiceEntryPatch {
  return {
    serviceUpdate: details.serviceUpdate ?? '',
    partCategory: details.partCategory ?? '',
    partItemName: details.partItemName ?? '',
    greaseDepth: details.greaseDepth === null ? '' : String(details.greaseDepth),
  };
}
