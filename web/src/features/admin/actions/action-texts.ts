import type { MessageDescriptor } from '@lingui/core';
import { msg, t } from '@lingui/core/macro';
import type { ActionKind, ActionSeverity, AgeingBand } from '../../../../../common/rules/follow-up-actions.js';
import type { Action, ActionEvent } from '../../../../../common/schemas/actions.js';
import { i18n } from '../../../lib/i18n.js';

/*
 * The names of the values the rule defines (kinds, severities, states, events, ageing bands),
 * shown in the reader's language; the values themselves stay the rule's English keys. Each
 * table is read when a screen renders (i18n._), never once at load, so it follows the language.
 */

/**
 * The kinds as shown. The English is the rule's own ACTION_KIND_TEXT (common/rules/follow-up-actions.ts),
 * which the due list and the reports share and the server writes into `reported`; a test holds the two together.
 */
export const KIND_LABELS = {
  'machine-not-working': msg`Machine not working`,
  'part-stolen': msg`Part stolen`,
  'part-broken': msg`Part broken`,
  'cof-high': msg`CoF high`,
} as const satisfies Record<ActionKind, MessageDescriptor>;

export const SEVERITY_LABELS = { high: msg`High`, medium: msg`Medium` } as const satisfies Record<ActionSeverity, MessageDescriptor>;

export const STATE_LABELS = { open: msg`Open`, closed: msg`Closed` } as const satisfies Record<Action['state'], MessageDescriptor>;

export const EVENT_LABELS = {
  opened: msg`Opened`,
  'reported-again': msg`Reported again`,
  closed: msg`Closed`,
  reopened: msg`Reopened`,
  'record-deleted': msg`Record deleted`,
} as const satisfies Record<ActionEvent['event'], MessageDescriptor>;

export const AGEING_BAND_LABELS = {
  '0-2': msg`0–2 days`,
  '3-7': msg`3–7 days`,
  '8-30': msg`8–30 days`,
  'over-30': msg`Over 30 days`,
} as const satisfies Record<AgeingBand, MessageDescriptor>;

export const kindText = (kind: ActionKind): string => i18n._(KIND_LABELS[kind]);

/** "Part stolen, Curve 12": how a card, its toast and its buttons name the action. */
export function titleOf(action: Action): string {
  const kind = kindText(action.kind);
  const curveNumber = action.curveNumber;
  return t`${kind}, Curve ${curveNumber}`;
}
