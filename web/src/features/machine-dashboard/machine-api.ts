import {
  type MachineFiltersResponse,
  machineFiltersResponseSchema,
  type MachineProgressResponse,
  machineProgressResponseSchema,
  type MachineReportResponse,
  machineReportResponseSchema,
  machineSummariesResponseSchema,
  type MachineStatsResponse,
  machineStatsResponseSchema,
  type MachineSummary,
  machineSummarySchema,
  type MachineSummaryUpdate,
} from '../../../../common/schemas/machines.js';
import { apiRequest } from '../../lib/api-client.js';

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

export const parseMachineStats = (body: unknown): MachineStatsResponse => machineStatsResponseSchema.parse(body);
export const parseMachineFilters = (body: unknown): MachineFiltersResponse => machineFiltersResponseSchema.parse(body);
export const parseMachineProgress = (body: unknown): MachineProgressResponse => machineProgressResponseSchema.parse(body);
export const parseMachineSummary = (body: unknown): MachineSummary => machineSummarySchema.parse(body);
export const parseMachineSummaries = (body: unknown): MachineSummary[] => machineSummariesResponseSchema.parse(body).summaries;

export async function updateMachineSummary(update: MachineSummaryUpdate): Promise<MachineSummary> {
  const res = await apiRequest('PUT', '/api/machine-dashboard-summary', update);
  return machineSummarySchema.parse(await res.json());
}

/** Makes (or finds) the machine report of the chosen DEN and AEN; the file is at machineReportFileUrl. */
export async function requestMachineReport(den: string, aen: string): Promise<MachineReportResponse> {
  const res = await apiRequest('GET', withQuery('/api/machine-report', { den, aen }));
  return machineReportResponseSchema.parse(await res.json());
}

export const machineReportFileUrl = (reportId: string) => `/api/download/${encodeURIComponent(reportId)}`;
