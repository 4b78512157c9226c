import { z } from 'zod';
import type {
  MachineFiltersResponse,
  MachineProgressResponse,
  MachineReportResponse,
  MachineStatsResponse,
  MachineSummary,
  MachineSummaryUpdate,
} from '../../../../common/schemas/machines.js';
import { apiRequest } from '../../lib/api-client.js';

/*
 * common/schemas/machines.ts is imported for its types only (as the admin views do): its
 * schemas built at run time would pull more of Zod into the entry chunk every technician's
 * phone downloads. The answers are read with the small schemas below.
 */

const withQuery = (path: string, params: Record<string, string>): string => {
  const query = new URLSearchParams(Object.entries(params).filter(([, v]) => v !== '' && v !== 'all')).toString();
  return query === '' ? path : `${path}?${query}`;
};

/** Query keys: the first element is the URL the default query function GETs. */
export const machineFiltersKey = (den: string) => [withQuery('/api/machine-filters', { den })] as const;
export const machineStatsKey = (den: string, aen: string) => [withQuery('/api/machine-stats', { den, aen })] as const;
export const machineProgressKey = (division: string) => [`/api/machine-progress?division=${encodeURIComponent(division)}`] as const;
export const machineSummaryKey = (division: string) => [`/api/machine-dashboard-summary?division=${encodeURIComponent(division)}`] as const;
export const MACHINE_SUMMARIES_KEY = ['/api/machine-dashboard-summaries'] as const;

const count = z.number().int().min(0);
const totals = z.object({ scope: count, curveCount: count, foundationCompleted: count, machinesInstalled: count, machinesCommissioned: count });
const lastProgress = z.object({ foundation: z.string().nullable(), installed: z.string().nullable(), commissioned: z.string().nullable() });
const figures = { scope: count, foundationCompleted: count, machinesInstalled: count, machinesCommissioned: count };

const statsSchema = z.object({
  totals,
  lastProgress,
  breakdown: z.object({
    level: z.enum(['DEN', 'AEN']),
    rows: z.array(z.object({ name: z.string().nullable(), den: z.string().nullable(), totals, lastProgress })),
  }),
});
const filtersSchema = z.object({ dens: z.array(z.string()), aens: z.array(z.string()) });
const progressSchema = z.object({
  division: z.string(),
  summary: z.object({ ...figures, updatedAt: z.string().nullable() }).nullable(),
  fromCurveRecords: z.object(figures).nullable(),
});
const summarySchema = z.object({ division: z.string(), ...figures, updatedAt: z.string().nullable() });
const summariesSchema = z.object({ summaries: z.array(summarySchema) });
const reportSchema = z.object({ reportId: z.string(), recordCount: count });

export const parseMachineStats = (body: unknown): MachineStatsResponse => statsSchema.parse(body);
export const parseMachineFilters = (body: unknown): MachineFiltersResponse => filtersSchema.parse(body);
export const parseMachineProgress = (body: unknown): MachineProgressResponse => progressSchema.parse(body);
export const parseMachineSummary = (body: unknown): MachineSummary => summarySchema.parse(body);
export const parseMachineSummaries = (body: unknown): MachineSummary[] => summariesSchema.parse(body).summaries;

export async function updateMachineSummary(update: MachineSummaryUpdate): Promise<MachineSummary> {
  const res = await apiRequest('PUT', '/api/machine-dashboard-summary', update);
  return summarySchema.parse(await res.json());
}

/** Makes (or finds) the machine report of the chosen DEN and AEN; the file is at machineReportFileUrl. */
export async function requestMachineReport(den: string, aen: string): Promise<MachineReportResponse> {
  const res = await apiRequest('GET', withQuery('/api/machine-report', { den, aen }));
  return reportSchema.parse(await res.json());
}

export const machineReportFileUrl = (reportId: string) => `/api/download/${encodeURIComponent(reportId)}`;
