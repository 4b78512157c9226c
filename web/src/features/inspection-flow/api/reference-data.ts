/**
 * The reference data of the inspection flow: curves, stations and machine parts. Every read
 * goes through these hooks, and every answer is also kept on the device (IndexedDB), so the
 * flow works with no network (docs/architecture.md, 'Offline on the phone'). The query cache holds each answer as parsed
 * by its shared schema, in the shape the API sends, so another screen reading the same URL
 * through the default query function sees the same data.
 */
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { CURVE_LIST_LIMIT } from '../../../../../common/constants.js';
import { type Curve, curveListResponseSchema } from '../../../../../common/schemas/curve.js';
import {
  partCategoriesResponseSchema,
  partListResponseSchema,
  type Station,
  stationListResponseSchema,
} from '../../../../../common/schemas/reference.js';
import { HOUR_MS, networkThenDevice, OFFLINE_CAPABLE } from '../../../lib/offline-query.js';

export const CURVES_URL = `/api/consolidated-curves?limit=${CURVE_LIST_LIMIT}`;

export const curvesQuery = queryOptions({
  queryKey: [CURVES_URL],
  queryFn: networkThenDevice(curveListResponseSchema),
  ...OFFLINE_CAPABLE,
  // As the original app: curves are cached 1 hour and kept 2 hours.
  staleTime: HOUR_MS,
  gcTime: 2 * HOUR_MS,
});

const selectCurves = (data: { curves: Curve[] }) => data.curves;

export function useCurves() {
  return useQuery({ ...curvesQuery, select: selectCurves });
}

export const stationsUrl = (section: string) => `/api/stations?section=${encodeURIComponent(section)}`;

export function stationsQuery(section: string) {
  return queryOptions({
    queryKey: [stationsUrl(section)],
    queryFn: networkThenDevice(stationListResponseSchema),
    ...OFFLINE_CAPABLE,
    // Sent only when a section is chosen, as the original app does.
    enabled: section !== '',
  });
}

const selectStations = (data: { stations: Station[] }) => data.stations;

export function useStations(section: string) {
  return useQuery({ ...stationsQuery(section), select: selectStations });
}

/** For filling stations from a quick-selected curve, whose section may not be loaded yet. */
export function useStationLookup(): (section: string) => Promise<Station[]> {
  const queryClient = useQueryClient();
  return useCallback(
    async (section: string) => (await queryClient.fetchQuery(stationsQuery(section))).stations,
    [queryClient],
  );
}

export const PART_CATEGORIES_URL = '/api/machine-parts/categories';

export const partCategoriesQuery = queryOptions({
  queryKey: [PART_CATEGORIES_URL],
  queryFn: networkThenDevice(partCategoriesResponseSchema),
  ...OFFLINE_CAPABLE,
});

/** Only asked for when a part is broken or stolen (as the original app asks). */
export function usePartCategories(enabled: boolean) {
  return useQuery({ ...partCategoriesQuery, select: (data) => data.categories, enabled });
}

export function partsQuery(category: string) {
  return queryOptions({
    queryKey: [`/api/machine-parts?category=${encodeURIComponent(category)}`],
    queryFn: networkThenDevice(partListResponseSchema),
    ...OFFLINE_CAPABLE,
  });
}

export function useParts(category: string) {
  return useQuery({ ...partsQuery(category), select: (data) => data.parts, enabled: category !== '' });
}

