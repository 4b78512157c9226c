import type { PublicUser } from '../../../common/schemas/auth.js';
import { curveListResponseSchema, type Curve, type CurveListQuery } from '../../../common/schemas/curve.js';
import type { CurveInput, CurveKey, CurveUpdate } from '../../../common/schemas/register.js';
import { divisionScope } from '../../../common/rules/division-scope.js';
import { lineFromCode } from '../../../common/rules/line-codes.js';
import { AppError } from '../../app-error.js';
import type { Db, DbOrTx } from '../../db/client.js';
import { uniqueViolation } from '../../db/errors.js';
import type { CurveRow } from '../../db/schema.js';
import { readTableVersions } from '../../db/versioned-cache.js';
import { type Actor, auditOf, recordAudit } from '../../audit/index.js';
import { ListCache, type CachedBody } from './list-cache.js';
import { curveAuditId, curveValuesOf, describeCurve, presentCurve } from './presenter.js';
import {
  deleteCurve,
  findCurveByHkmCode,
  findCurveByKey,
  insertCurve,
  listCurves,
  updateCurve,
} from './repository.js';

const keyOf = (curve: CurveKey): CurveKey => ({ section: curve.section, curveNumber: curve.curveNumber, line: curve.line });
const sameKey = (a: CurveKey, b: CurveKey) => a.section === b.section && a.curveNumber === b.curveNumber && a.line === b.line;

const duplicateKey = (key: CurveKey) =>
  new AppError('CONFLICT', `Curve ${key.curveNumber} (${key.line}) already exists in section ${key.section}`, {
    fields: { curveNumber: `Curve ${key.curveNumber} (${key.line}) already exists in section ${key.section}` },
  });
const duplicateHkm = (hkmCode: number, holder: CurveKey | null) => {
  const message = `HKM code ${hkmCode} is already used${holder ? ` by ${describeCurve(holder)}` : ''}`;
  return new AppError('CONFLICT', message, { fields: { hkmCode: message } });
};
const notFound = (key: CurveKey) => new AppError('NOT_FOUND', `No ${describeCurve(key)}`);
/** A path may name the line by the register's code (UP, DN, SL) as sheets and bodies may. */
const pathKey = (key: CurveKey): CurveKey => ({ ...key, line: lineFromCode(key.line) ?? key.line });

/** A second writer got in between our check and our write: the unique index names what clashed. */
function conflictFrom(error: unknown, values: CurveInput | CurveRow): AppError | null {
  const constraint = uniqueViolation(error);
  if (constraint === null) return null;
  if (constraint.includes('hkm') && values.hkmCode !== null) return duplicateHkm(values.hkmCode, null);
  return duplicateKey(keyOf(values));
}

export function createCurveService(deps: { db: Db }) {
  const cache = new ListCache();
  const version = async () => (await readTableVersions(deps.db, ['consolidated_curve_details'])).get('consolidated_curve_details') ?? 0;

  /** The key and the HKM code must stay unique: named 409s rather than a bare constraint error. */
  async function assertFree(tx: DbOrTx, values: CurveInput, self: CurveRow | null) {
    const key = keyOf(values);
    if (!self || !sameKey(key, self)) {
      const holder = await findCurveByKey(tx, key);
      if (holder && holder.id !== self?.id) throw duplicateKey(key);
    }
    if (values.hkmCode !== null && values.hkmCode !== self?.hkmCode) {
      const holder = await findCurveByHkmCode(tx, values.hkmCode, self?.id);
      if (holder) throw duplicateHkm(values.hkmCode, holder);
    }
  }

  async function write<T>(values: CurveInput, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      throw conflictFrom(error, values) ?? error;
    }
  }

  return {
    /** The serialized {curves, total} answer for this user and query. */
    async list(user: PublicUser, query: CurveListQuery): Promise<CachedBody> {
      const scope = divisionScope(user, query.division);
      if (scope.none) return cache.get('none', '') ?? cache.set('none', '', { curves: [], total: 0 });
      const filter = { division: scope.division, section: query.section, sse: query.sse, q: query.q };
      const key = JSON.stringify([filter, query.limit, query.offset]);
      // One primary-key read: the table's version moves with every write by any instance.
      const current = String(await version());
      const cached = cache.get(key, current);
      if (cached) return cached;
      const { rows, total } = await listCurves(deps.db, filter, { limit: query.limit, offset: query.offset });
      // Checked against the shared contract once per version, not on every request.
      const answer = curveListResponseSchema.parse({ curves: rows.map(presentCurve), total });
      return cache.set(key, current, answer);
    },

    async create(actor: Actor, values: CurveInput): Promise<Curve> {
      return write(values, () =>
        deps.db.transaction(async (tx) => {
          await assertFree(tx, values, null);
          const curve = presentCurve(await insertCurve(tx, values));
          await recordAudit(tx, auditOf(actor, { action: 'curve.create', entity: 'curve', entityId: curveAuditId(curve), before: null, after: curve }));
          return curve;
        }),
      );
    },

    /**
     * Edits the curve at `key`; the key itself may change. Inspection records keep their own
     * copy of the curve's fields, so no recorded evidence changes with it.
     */
    async update(actor: Actor, key: CurveKey, changes: CurveUpdate): Promise<Curve> {
      return deps.db.transaction(async (tx) => {
        const current = await findCurveByKey(tx, pathKey(key));
        if (!current) throw notFound(key);
        // Optional fields left out keep their value (the spec's client sends only some).
        const values: CurveInput = { ...curveValuesOf(current), ...definedOnly(changes) };
        return write(values, async () => {
          await assertFree(tx, values, current);
          const updated = presentCurve(await updateCurve(tx, current.id, values));
          await recordAudit(
            tx,
            auditOf(actor, { action: 'curve.update', entity: 'curve', entityId: curveAuditId(updated), before: presentCurve(current), after: updated }),
          );
          return updated;
        });
      });
    },

    /** Deletes the curve at `key`; the inspection records of that curve stay as they were. */
    async remove(actor: Actor, key: CurveKey): Promise<Curve> {
      return deps.db.transaction(async (tx) => {
        const current = await findCurveByKey(tx, pathKey(key));
        if (!current) throw notFound(key);
        await deleteCurve(tx, current.id);
        const before = presentCurve(current);
        await recordAudit(tx, auditOf(actor, { action: 'curve.delete', entity: 'curve', entityId: curveAuditId(before), before, after: null }));
        return before;
      });
    },
  };
}

/** The fields of a partial update that were actually sent. */
function definedOnly<T extends object>(changes: T): Partial<T> {
  return Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined)) as Partial<T>;
}

export type CurveService = ReturnType<typeof createCurveService>;
