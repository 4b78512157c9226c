import { divisionScope } from '../../../common/rules/division-scope.js';
import type { PublicUser } from '../../../common/schemas/auth.js';
import type { RegisterFilters } from '../../../common/schemas/register.js';
import type { Db } from '../../db/client.js';
import { readTableVersions, VersionedCache } from '../../db/versioned-cache.js';
import { listRegisterFilters } from './repository.js';

/** Sections and SSE names for the register's filters, remade only after the register changed. */
export function createRegisterFiltersService({ db }: { db: Db }) {
  const cache = new VersionedCache<RegisterFilters>({ maxEntries: 32 });
  return {
    /** A Client's lists are their division's, whatever they ask. */
    async filters(user: PublicUser, requestedDivision: string | undefined): Promise<RegisterFilters> {
      const scope = divisionScope(user, requestedDivision);
      if (scope.none) return { sections: [], sses: [] };
      const versions = await readTableVersions(db, ['consolidated_curve_details', 'stations']);
      // The cache holds one version a key: the stations' version goes into the key.
      const key = `${scope.division ?? '*'}:${versions.get('stations') ?? 0}`;
      return cache.get(key, versions.get('consolidated_curve_details') ?? 0, () => listRegisterFilters(db, scope.division));
    },
  };
}

export type RegisterFiltersService = ReturnType<typeof createRegisterFiltersService>;
