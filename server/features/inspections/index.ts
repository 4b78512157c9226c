/** What other features use of inspections: the records filter, and the photos' derived files. */
export { countInspections, type InspectionFilter, inspectionWhere } from './repository.js';
export { derivedPhoto, PRINT_COPY, THUMBNAIL } from './photo-variants.js';
