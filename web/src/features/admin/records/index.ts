export { DataSummaryCard } from './data-summary.js';
export { RecordsView } from './records-view.js';
export { DATA_SUMMARY_KEY, type DownloadedFile, fileNameFromDisposition, saveFile } from './records-api.js';
