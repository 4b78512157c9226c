/**
 * The contracts of the admin's records view (docs/functional-requirements.md, 'Inspection records and images'): the data summary, record
 * deletion and photo downloads. In the image calls, `id` and `imageIds` are record IDs: a
 * record has exactly one photo, and deleting "an image" deletes its record.
 */
import { z } from 'zod';

/** The most record IDs one delete or download call may name. */
export const RECORD_BATCH_MAX = 500;

const count = z.number().int().min(0);

/** GET /api/data-summary: counted by the server (a Client's figures are their division's). */
export const dataSummarySchema = z.object({ curveRecords: count, stations: count, inspectionRecords: count });
export type DataSummary = z.infer<typeof dataSummarySchema>;

export const recordIdSchema = z.string({ error: 'record ID must be text' }).trim().min(1, 'record ID is required').max(64, 'record ID must be at most 64 characters');

/** The body of POST /api/images/delete and POST /api/images/download. */
export const imageIdsRequestSchema = z.object({
  imageIds: z
    .array(recordIdSchema, { error: 'imageIds must be a list of record IDs' })
    .min(1, 'imageIds must name at least one record')
    .max(RECORD_BATCH_MAX, `imageIds may name at most ${RECORD_BATCH_MAX} records`)
    // The same record twice is one record.
    .transform((ids) => [...new Set(ids)]),
});
export type ImageIdsRequest = z.infer<typeof imageIdsRequestSchema>;

/** POST /api/images/delete. IDs that name no record (already deleted) are listed, not an error. */
export const deleteImagesResponseSchema = z.object({
  deletedCount: count,
  notFound: z.array(z.string()),
});
export type DeleteImagesResponse = z.infer<typeof deleteImagesResponseSchema>;

/** DELETE /api/inspections/{recordId}. */
export const deleteRecordResponseSchema = z.object({ recordId: z.string(), deleted: z.literal(true) });
export type DeleteRecordResponse = z.infer<typeof deleteRecordResponseSchema>;

/** The name of the zip of several photos: the count is in the name. */
export const zipFileName = (count: number) => `inspection-images-${count}.zip`;
