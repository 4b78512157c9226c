import type { RolloutField } from '../../../../common/rules/rollout.js';

/** Texts of the machine rollout views that are the spec's contract (sections 2, 5 and 8). */
export const MACHINE_TEXTS = {
  dashboardTitle: 'Machine Dashboard',
  progressTitle: 'Machine Installation Progress',
  scope: 'Scope',
  foundation: 'Foundation',
  installed: 'Installed',
  commissioned: 'Commissioned',
  updateValues: 'Update Progress Values',
  updating: 'Updating...',
  updated: 'Machine Dashboard Updated',
  updateFailed: 'Failed to update machine dashboard',
  errorTitle: 'Error',
  reportErrorTitle: 'Report Error',
  reportFailed: 'Failed to generate machine report',
  downloadReport: 'Download Machine Report',
  preparingReport: 'Preparing report...',
  cancel: 'Cancel',
  noData: '–',
} as const;

/** The four figures as the spec's progress cards name them (also the short labels of lists). */
export const FIGURE_LABELS: Record<RolloutField, string> = {
  scope: MACHINE_TEXTS.scope,
  foundationCompleted: MACHINE_TEXTS.foundation,
  machinesInstalled: MACHINE_TEXTS.installed,
  machinesCommissioned: MACHINE_TEXTS.commissioned,
};
