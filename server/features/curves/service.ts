import type { PublicUser } from '../../../common/schemas/auth.js';
import type { Curve, CurveListQuery } from '../../../common/schemas/curve.js';
import type { Db } from '../../db/client.js';
import type { CurveRow } from '../../db/schema.js';
import { divisionScope } from '../../../common/rules/division-scope.js';
import { listCurves } from './repository.js';

function present(row: CurveRow): Curve {
  return { ...row, createdAt: row.createdAt.toISOString(), updatedAt: row.updatedAt.toISOString() };
}

export function createCurveService(deps: { db: Db }) {
  return {
    async list(user: PublicUser, query: CurveListQuery) {
      const scope = divisionScope(user, query.division);
      if (scope.none) return { curves: [], total: 0 };
      const { rows, total } = await listCurves(
        deps.db,
        { division: scope.division, section: query.section },
        { limit: query.limit, offset: query.offset },
      );
      return { curves: rows.map(present), total };
    },
  };
}

export type CurveService = ReturnType<typeof createCurveService>;
