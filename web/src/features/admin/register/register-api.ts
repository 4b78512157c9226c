import type { QueryClient } from '@tanstack/react-query';
import { type Curve, curveListResponseSchema } from '../../../../../common/schemas/curve.js';
import type { Station } from '../../../../../common/schemas/reference.js';
import {
  type CurveInput,
  curveResponseSchema,
  importResultSchema,
  type ImportResult,
  type RegisterFilters,
  registerFiltersResponseSchema,
  type RegisterKind,
  type StationInput,
  stationRegisterResponseSchema,
  stationResponseSchema,
} from '../../../../../common/schemas/register.js';
import { ApiError, apiRequest, errorBodyOf, reportUnauthorized } from '../../../lib/api-client.js';
import { DATA_SUMMARY_KEY, type DownloadedFile, fileNameFromDisposition } from '../records/index.js';

/** Rows a page of the curve and station views shows (the first 20 matches). */
export const REGISTER_PAGE_SIZE = 20;

export interface CurveFiltersValue {
  division: string;
  section: string;
  sse: string;
  q: string;
}
export interface StationFiltersValue {
  division: string;
  section: string;
  q: string;
}
export const NO_CURVE_FILTERS: CurveFiltersValue = { division: '', section: '', sse: '', q: '' };
export const NO_STATION_FILTERS: StationFiltersValue = { division: '', section: '', q: '' };

function pageUrl(path: string, filters: Record<string, string>, page: number): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) if (value.trim() !== '') params.set(key, value.trim());
  params.set('limit', String(REGISTER_PAGE_SIZE));
  params.set('offset', String((page - 1) * REGISTER_PAGE_SIZE));
  return `${path}?${params.toString()}`;
}

export const curvesPageUrl = (filters: CurveFiltersValue, page: number) => pageUrl('/api/consolidated-curves', { ...filters }, page);
export const stationsPageUrl = (filters: StationFiltersValue, page: number) => pageUrl('/api/admin/stations', { ...filters }, page);
export const registerFiltersUrl = (division: string) =>
  division === '' ? '/api/register-filters' : `/api/register-filters?division=${encodeURIComponent(division)}`;

export const parseCurvePage = (body: unknown): { curves: Curve[]; total: number } => curveListResponseSchema.parse(body);
export const parseStationPage = (body: unknown): { stations: Station[]; total: number } => stationRegisterResponseSchema.parse(body);
export const parseRegisterFilters = (body: unknown): RegisterFilters => registerFiltersResponseSchema.parse(body);
export const parseImportResult = (body: unknown): ImportResult => importResultSchema.parse(body);

/** The row errors of a refused import (a 400 IMPORT_ROWS_INVALID body), or none. */
export const rowErrorsOf = (bodyText: string): ImportResult['rowErrors'] => errorBodyOf(bodyText)?.rowErrors ?? [];

const curvePath = (key: Pick<Curve, 'section' | 'curveNumber' | 'line'>) =>
  [key.section, key.curveNumber, key.line].map(encodeURIComponent).join('/');

/** The form's values as the server takes them: empty optional values as null (as the original app sends them). */
export type CurveBody = { [K in keyof CurveInput]: string | number | null };
export type StationBody = { [K in keyof StationInput]: string | number | null };

export async function createCurve(body: CurveBody): Promise<Curve> {
  const res = await apiRequest('POST', '/api/consolidated-curves', body);
  return curveResponseSchema.parse(await res.json()).curve;
}

export async function updateCurve(key: Curve, body: CurveBody): Promise<Curve> {
  const res = await apiRequest('PUT', `/api/admin/curves/${curvePath(key)}`, body);
  return curveResponseSchema.parse(await res.json()).curve;
}

export async function deleteCurve(key: Curve): Promise<Curve> {
  await apiRequest('DELETE', `/api/consolidated-curves/${curvePath(key)}`);
  return key;
}

export async function createStation(body: StationBody): Promise<Station> {
  const res = await apiRequest('POST', '/api/stations', body);
  return stationResponseSchema.parse(await res.json()).station;
}

export async function updateStation(id: number, body: StationBody): Promise<Station> {
  const res = await apiRequest('PUT', `/api/admin/stations/${id}`, { id, ...body });
  return stationResponseSchema.parse(await res.json()).station;
}

export async function deleteStation(station: Station): Promise<Station> {
  await apiRequest('DELETE', `/api/stations/${station.id}`);
  return station;
}

/** A picked file, checked by a dry run, waiting for the admin's word; or the real import's refusal. */
export interface PendingImport {
  type: RegisterKind;
  file: File;
  result: ImportResult;
}

/** POST /api/import-excel: multipart, so not through apiRequest (which sends JSON). */
export async function importSheet(type: RegisterKind, file: File, dryRun: boolean): Promise<ImportResult> {
  const form = new FormData();
  form.append('type', type);
  form.append('file', file, file.name);
  const res = await fetch(`/api/import-excel${dryRun ? '?dryRun=true' : ''}`, { method: 'POST', body: form, credentials: 'include' });
  const text = await res.text();
  if (res.status === 401) reportUnauthorized();
  if (!res.ok) throw new ApiError(res.status, res.statusText, text);
  return parseImportResult(JSON.parse(text));
}

// The server's own names for the files, used when its answer names none.
const CURVES_FILE_NAME = 'Curve_Details.xlsx';
const STATIONS_FILE_NAME = 'Station_Details.xlsx';
const EXPORT_NAMES: Record<RegisterKind, string> = { curves: CURVES_FILE_NAME, stations: STATIONS_FILE_NAME };

export async function exportRegister(kind: RegisterKind, division: string): Promise<DownloadedFile> {
  const res = await apiRequest('GET', `/api/export/${kind}${division ? `?division=${encodeURIComponent(division)}` : ''}`);
  return { blob: await res.blob(), fileName: fileNameFromDisposition(res.headers.get('Content-Disposition')) ?? EXPORT_NAMES[kind] };
}

const REGISTER_URLS = ['/api/consolidated-curves', '/api/admin/stations', '/api/register-filters'];

/** After a write, every page, filter list and count of the register may be out of date. */
export async function invalidateRegister(queryClient: QueryClient): Promise<void> {
  await Promise.all([
    queryClient.invalidateQueries({
      predicate: (query) => {
        const url = query.queryKey[0];
        return typeof url === 'string' && REGISTER_URLS.some((prefix) => url === prefix || url.startsWith(`${prefix}?`));
      },
    }),
    queryClient.invalidateQueries({ queryKey: DATA_SUMMARY_KEY }),
  ]);
}
