/** What other features use of inspections: the records filter, and the photos' derived files. */
export { countInspections, type InspectionFilter, inspectionWhere } from './repository.js';
export { derivedPhoto, PRINT_COPY, remakePhotoVariants, THUMBNAIL } from './photo-variants.js';
export { createPhotoFiles, lockPhoto, type PhotoFiles } from './photo-files.js';
