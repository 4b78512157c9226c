import type { InspectionLog } from '../../../common/schemas/inspection.js';
import { inspectionTypeSchema, photoStateSchema } from '../../../common/schemas/inspection.js';
import type { InspectionRow } from '../../db/schema.js';

export const imageUrlOf = (recordId: string) => `/api/inspections/${encodeURIComponent(recordId)}/image`;
const thumbnailUrlOf = (recordId: string) => `/api/inspections/${encodeURIComponent(recordId)}/thumbnail`;

/** A stored inspection as the API shows it; the unused imageData column never leaves. */
export function toInspectionLog(row: InspectionRow): InspectionLog {
  const { imageData: _unused, clientSubmissionId: _private, greaseWeight: _notCollected, submittedAt, type, ...rest } = row;
  return {
    ...rest,
    type: inspectionTypeSchema.parse(type),
    photoState: photoStateSchema.parse(row.photoState),
    thumbnailUrl: row.imageHash ? thumbnailUrlOf(row.recordId) : null,
    submittedAt: submittedAt.toISOString(),
  };
}
