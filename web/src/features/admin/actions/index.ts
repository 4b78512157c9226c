export { ActionCountsCard } from './action-counts-card.js';
export { ActionsView } from './actions-view.js';
