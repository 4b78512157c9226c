import { userDataHeaderValue } from '../../../lib/stored-user.js';

/**
 * The X-User-Data header the api client sends with every call (spec section 7). The upload
 * and the image check cannot go through `apiRequest`, which sends JSON only, so they add
 * the same header from the same helper here.
 */
export function userDataHeaders(): Record<string, string> {
  const value = userDataHeaderValue();
  return value === null ? {} : { 'X-User-Data': value };
}
