/**
 * The reference data of the inspection flow: curves, stations and machine parts. Every read
 * goes through these hooks, so an offline cache (DESIGN section 8) has one place to plug in.
 * The cache holds each answer as parsed by its shared schema, in the shape the API sends, so
 * another screen reading the same URL through the default query function sees the same data.
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
import { getQueryFn } from '../../../lib/api-client.js';

// The URL is the first key element: that is what the shared query function GETs.
const fetchJson = getQueryFn({ on401: 'throw' });

const HOUR_MS = 60 * 60 * 1000;

export const CURVES_URL = `/api/consolidated-curves?limit=${CURVE_LIST_LIMIT}`;

export const curvesQuery = queryOptions({
  queryKey: [CURVES_URL],
  queryFn: async (context) => curveListResponseSchema.parse(await fetchJson(context)),
  // Spec section 9: curves are cached 1 hour and kept 2 hours.
  staleTime: HOUR_MS,
  gcTime: 2 * HOUR_MS,
});

const selectCurves = (data: { curves: Curve[] }) => data.curves;

export function useCurves() {
  return useQuery({ ...curvesQuery, select: selectCurves });
}

export function stationsQuery(section: string) {
  return queryOptions({
    queryKey: [`/api/stations?section=${encodeURIComponent(section)}`],
    queryFn: async (context) => stationListResponseSchema.parse(await fetchJson(context)),
    // Spec section 7: sent only when a section is chosen.
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

/** Only asked for when a part is broken or stolen (spec section 7). */
export function usePartCategories(enabled: boolean) {
  return useQuery({
    queryKey: [PART_CATEGORIES_URL],
    queryFn: async (context) => partCategoriesResponseSchema.parse(await fetchJson(context)),
    select: (data) => data.categories,
    enabled,
  });
}

export function useParts(category: string) {
  return useQuery({
    queryKey: [`/api/machine-parts?category=${encodeURIComponent(category)}`],
    queryFn: async (context) => partListResponseSchema.parse(await fetchJson(context)),
    select: (data) => data.parts,
    enabled: category !== '',
  });
}
