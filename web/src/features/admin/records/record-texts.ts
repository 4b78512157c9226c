/** Texts of the records and data-management views that are the spec's contract (sections 2 and 8). */
export const RECORD_TEXTS = {
  imageError: 'Image Error',
  /** Not the spec's: the server stored the photo as sent, but its pixels cannot be read (docs/architecture.md, 'How an upload and a photo flow'). */
  photoUndecodable: 'Photo damaged: the server cannot read it. The file is kept as it was sent.',
  deleting: 'Deleting...',
  recordDeleted: 'Record Deleted',
  deleteErrorTitle: 'Delete Error',
  deleteRecordFailed: 'Failed to delete inspection record',
  imagesDeleted: 'Images Deleted',
  imagesDeletedText: (count: number) => `${count} images deleted successfully`,
  deleteImagesFailed: 'Failed to delete images',
  downloadFailedTitle: 'Download Failed',
  downloadFailed: 'Failed to download image',
  deleteSelected: 'Delete Selected',
  downloadSelected: 'Download Selected',
  selectAll: 'Select all',
  dataSummary: 'Data Summary',
  curveRecords: 'Curve Records',
  stations: 'Stations',
  inspectionRecords: 'Inspection Records',
} as const;
