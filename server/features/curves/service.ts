import type { PublicUser } from '../../../common/schemas/auth.js';
import { curveListResponseSchema, type Curve, type CurveListQuery } from '../../../common/schemas/curve.js';
import { divisionScope } from '../../../common/rules/division-scope.js';
import type { Db } from '../../db/client.js';
import { readTableVersions } from '../../db/versioned-cache.js';
import type { CurveRow } from '../../db/schema.js';
import { ListCache, type CachedBody } from './list-cache.js';
import { listCurves } from './repository.js';

function present(row: CurveRow): Curve {
  return { ...row, createdAt: row.createdAt.toISOString(), updatedAt: row.updatedAt.toISOString() };
}

export function createCurveService(deps: { db: Db }) {
  const cache = new ListCache();

  return {
    /** The serialized {curves, total} answer for this user and query. */
    async list(user: PublicUser, query: CurveListQuery): Promise<CachedBody> {
      const scope = divisionScope(user, query.division);
      if (scope.none) return cache.get('none', '') ?? cache.set('none', '', { curves: [], total: 0 });
      const filter = { division: scope.division, section: query.section };
      const key = JSON.stringify([filter, query.limit, query.offset]);
      // One primary-key read: the table's version moves with every write by any instance.
      const version = String((await readTableVersions(deps.db, ['consolidated_curve_details'])).get('consolidated_curve_details') ?? 0);
      const cached = cache.get(key, version);
      if (cached) return cached;
      const { rows, total } = await listCurves(deps.db, filter, { limit: query.limit, offset: query.offset });
      // Checked against the shared contract once per version, not on every request.
      const answer = curveListResponseSchema.parse({ curves: rows.map(present), total });
      return cache.set(key, version, answer);
    },
  };
}

export type CurveService = ReturnType<typeof createCurveService>;
