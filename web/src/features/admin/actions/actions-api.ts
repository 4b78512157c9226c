import type { QueryClient } from '@tanstack/react-query';
import {
  type Action,
  type ActionCountsResponse,
  actionCountsResponseSchema,
  type ActionListResponse,
  actionListResponseSchema,
  actionSchema,
} from '../../../../../common/schemas/actions.js';
import { apiErrorMessage, apiRequest } from '../../../lib/api-client.js';
import { apiErrorFields } from '../../../lib/api-failure.js';
import { ACTIONS_URL_PREFIX } from './action-query.js';

export const parseActionList = (body: unknown): ActionListResponse => actionListResponseSchema.parse(body);
export const parseActionCounts = (body: unknown): ActionCountsResponse => actionCountsResponseSchema.parse(body);

const recordPath = (recordId: string) => `/api/inspections/${encodeURIComponent(recordId)}`;
export const thumbnailUrlOf = (recordId: string) => `${recordPath(recordId)}/thumbnail`;
export const photoUrlOf = (recordId: string) => `${recordPath(recordId)}/image`;

/** The records view showing one record (found by its ID), for an Admin. */
export const recordViewSearch = (recordId: string) => `?${new URLSearchParams({ view: 'records-management', q: recordId }).toString()}`;

export type StateChange = 'close' | 'reopen';

/** POST /api/actions/{id}/close or /reopen with the Admin's note; the answer is the action as it now stands. */
export async function changeActionState({ id, change, note }: { id: number; change: StateChange; note: string }): Promise<Action> {
  const res = await apiRequest('POST', `/api/actions/${id}/${change}`, { note });
  return actionSchema.parse(await res.json());
}

/** The reason to show beside the note: the server's word on the note itself, else its message. */
export function noteErrorOf(error: unknown, fallback: string): string {
  return apiErrorFields(error).note ?? apiErrorMessage(error, fallback);
}

/** After a close or reopen every page, the ageing counts and the landing's counts may be out of date. */
export async function invalidateActions(queryClient: QueryClient): Promise<void> {
  await queryClient.invalidateQueries({
    predicate: (query) => typeof query.queryKey[0] === 'string' && query.queryKey[0].startsWith(ACTIONS_URL_PREFIX),
  });
}
