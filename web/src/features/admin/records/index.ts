export { DataSummaryCard } from './data-summary.js';
export { RecordsView } from './records-view.js';
