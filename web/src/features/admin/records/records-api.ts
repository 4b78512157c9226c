import type { QueryClient } from '@tanstack/react-query';
import {
  type DataSummary,
  dataSummarySchema,
  type DeleteImagesResponse,
  deleteImagesResponseSchema,
  RECORD_BATCH_MAX,
  zipFileName,
} from '../../../../../common/schemas/records.js';
import { type Technician, technicianListResponseSchema } from '../../../../../common/schemas/reference.js';
import { apiRequest } from '../../../lib/api-client.js';

/** GET /api/data-summary; throws on any other shape (the card shows an error). */
export const parseDataSummary = (body: unknown): DataSummary => dataSummarySchema.parse(body);

/** deletedCount of POST /api/images/delete; null when the answer is not the contract's. */
export function deletedCountOf(body: unknown): DeleteImagesResponse['deletedCount'] | null {
  const answer = deleteImagesResponseSchema.safeParse(body);
  return answer.success ? answer.data.deletedCount : null;
}

/** The key of the data summary; its first element is the URL the default query function GETs. */
export const DATA_SUMMARY_KEY = ['/api/data-summary'] as const;

/** The technician list of the records and report filters: one cache entry, kept 5 minutes, as the original app caches it. */
export const TECHNICIANS_KEY = ['/api/technicians'] as const;
export const TECHNICIANS_STALE_MS = 5 * 60_000;
export const parseTechnicians = (body: unknown): Technician[] => technicianListResponseSchema.parse(body).technicians;

/** A page of the list is keyed by its whole URL; this prefix finds them all. */
const LIST_URL_PREFIX = '/api/inspections?';

export const imageUrlOf = (recordId: string) => `/api/inspections/${encodeURIComponent(recordId)}/image`;

/** After a delete, every page and filter of the list and the counts may be out of date. */
export async function invalidateAfterDelete(queryClient: QueryClient): Promise<void> {
  await Promise.all([
    queryClient.invalidateQueries({
      predicate: (query) => typeof query.queryKey[0] === 'string' && query.queryKey[0].startsWith(LIST_URL_PREFIX),
    }),
    queryClient.invalidateQueries({ queryKey: DATA_SUMMARY_KEY }),
  ]);
}

/** The answer's body ({recordId, deleted: true}) is not read: the 2xx is what matters. */
export async function deleteRecord(recordId: string): Promise<string> {
  await apiRequest('DELETE', `/api/inspections/${encodeURIComponent(recordId)}`);
  return recordId;
}

/** Deletes in batches the server accepts; the count is the sum of what each batch deleted. */
export async function deleteImages(recordIds: readonly string[]): Promise<number> {
  let deleted = 0;
  for (let start = 0; start < recordIds.length; start += RECORD_BATCH_MAX) {
    const imageIds = recordIds.slice(start, start + RECORD_BATCH_MAX);
    const res = await apiRequest('POST', '/api/images/delete', { imageIds });
    // A 2xx with an odd body still deleted: count the batch as the IDs it named.
    deleted += deletedCountOf(await res.json().catch(() => null)) ?? imageIds.length;
  }
  return deleted;
}

/**
 * The file name of a Content-Disposition header: RFC 5987 `filename*=UTF-8''...` first (it may
 * carry any character), then the plain `filename=`. Path parts are cut off: a name is a name.
 */
export function fileNameFromDisposition(header: string | null): string | null {
  if (header === null) return null;
  let name: string | null = null;
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header);
  if (extended?.[1]) {
    try {
      name = decodeURIComponent(extended[1].trim());
    } catch {
      name = null;
    }
  }
  if (name === null) {
    const plain = /filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;\s]+))/.exec(header);
    name = plain?.[1]?.replace(/\\(.)/g, '$1') ?? plain?.[2] ?? null;
  }
  const base = name?.split(/[\\/]/).pop()?.trim();
  return base ? base : null;
}

export interface DownloadedFile {
  blob: Blob;
  fileName: string;
}

async function asFile(res: Response, fallbackName: string): Promise<DownloadedFile> {
  return { blob: await res.blob(), fileName: fileNameFromDisposition(res.headers.get('Content-Disposition')) ?? fallbackName };
}

export async function downloadOne(recordId: string): Promise<DownloadedFile> {
  const res = await apiRequest('GET', `/api/image/download/${encodeURIComponent(recordId)}`);
  return asFile(res, `inspection_${recordId}.jpg`);
}

/** One ID gives that photo; several give a zip whose name carries the count. */
export async function downloadMany(recordIds: readonly string[]): Promise<DownloadedFile> {
  const res = await apiRequest('POST', '/api/images/download', { imageIds: recordIds });
  const [only] = recordIds;
  return asFile(res, recordIds.length === 1 && only !== undefined ? `inspection_${only}.jpg` : zipFileName(recordIds.length));
}

/** Hands a fetched file to the browser's download machinery under its own name. */
export function saveFile({ blob, fileName }: DownloadedFile): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked a little later: some browsers start reading the blob only after click() returns.
  setTimeout(() => URL.revokeObjectURL(url), 30_000);
}
