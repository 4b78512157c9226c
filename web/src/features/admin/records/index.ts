export { DataSummaryCard } from './data-summary.js';
export { RecordImage } from './record-image.js';
export { RecordsView } from './records-view.js';
export {
  DATA_SUMMARY_KEY,
  type DownloadedFile,
  fileNameFromDisposition,
  parseTechnicians,
  saveFile,
  TECHNICIANS_KEY,
  TECHNICIANS_STALE_MS,
} from './records-api.js';
