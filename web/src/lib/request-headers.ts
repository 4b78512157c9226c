import { userDataHeaderValue } from './stored-user.js';

/**
 * The X-User-Data header the api client sends with every call (docs/architecture.md, 'The public contract'). Multipart
 * uploads and HEAD checks cannot go through `apiRequest`, which sends JSON only, so they add
 * the same header from here.
 */
export function userDataHeaders(): Record<string, string> {
  const value = userDataHeaderValue();
  return value === null ? {} : { 'X-User-Data': value };
}
