/**
 * The JSON body of every error answer, as the server's central error handler writes it: the
 * clients show `message`, put `fields` under the inputs they name and list an import's
 * `rowErrors`. The technician's first download parses it (a refused upload), so it stays small.
 */
import { z } from 'zod';

/** A problem of one row of an imported sheet: its row number as a spreadsheet shows it (the header is row 1). */
export const importRowErrorSchema = z.object({ row: z.number().int(), column: z.string(), message: z.string() });
export type ImportRowError = z.infer<typeof importRowErrorSchema>;

export const errorBodySchema = z.object({
  /** A code of common/errors.ts, read as text: a client still shows the message of a code newer than itself. */
  code: z.string(),
  message: z.string(),
  /** Field-level problems of a validation failure: path -> message. */
  fields: z.record(z.string(), z.string()).optional(),
  /** An import's bad rows. */
  rowErrors: z.array(importRowErrorSchema).optional(),
  requestId: z.string().optional(),
});
export type ErrorAnswer = z.infer<typeof errorBodySchema>;
