import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { RolloutField } from '../../../../common/rules/rollout.js';

/**
 * Texts of the machine rollout views that are the spec's contract (sections 2, 5 and 8), as
 * catalogue entries: each view reads them in the language shown (`i18n._`).
 */
export const MACHINE_TEXTS = {
  dashboardTitle: msg`Machine Dashboard`,
  progressTitle: msg`Machine Installation Progress`,
  scope: msg`Scope`,
  foundation: msg`Foundation`,
  installed: msg`Installed`,
  commissioned: msg`Commissioned`,
  updateValues: msg`Update Progress Values`,
  updating: msg`Updating...`,
  updated: msg`Machine Dashboard Updated`,
  updateFailed: msg`Failed to update machine dashboard`,
  errorTitle: msg`Error`,
  reportErrorTitle: msg`Report Error`,
  reportFailed: msg`Failed to generate machine report`,
  downloadReport: msg`Download Machine Report`,
  preparingReport: msg`Preparing report...`,
  cancel: msg`Cancel`,
} as const satisfies Record<string, MessageDescriptor>;

/** Where a division has no figures yet. */
export const NO_FIGURE = '–';

/** The four figures as the spec's progress cards name them (also the short labels of lists). */
export const FIGURE_LABELS: Readonly<Record<RolloutField, MessageDescriptor>> = {
  scope: MACHINE_TEXTS.scope,
  foundationCompleted: MACHINE_TEXTS.foundation,
  machinesInstalled: MACHINE_TEXTS.installed,
  machinesCommissioned: MACHINE_TEXTS.commissioned,
};
