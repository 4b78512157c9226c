import type { Station } from '../../../common/schemas/reference.js';
import type { StationInput, StationRegisterQuery } from '../../../common/schemas/register.js';
import { AppError } from '../../app-error.js';
import type { Db } from '../../db/client.js';
import { uniqueViolation } from '../../db/errors.js';
import { type Actor, auditOf, recordAudit } from '../../audit/index.js';
import { presentStation, stationAuditId } from './presenter.js';
import {
  deleteStation,
  findStationById,
  findStationByKey,
  insertStation,
  listStations,
  type StationKey,
  updateStation,
} from './repository.js';

const duplicateCode = (key: StationKey) => {
  const message = `Station code ${key.stationCode} already exists in section ${key.section}`;
  return new AppError('CONFLICT', message, { fields: { stationCode: message } });
};
const notFound = (id: number) => new AppError('NOT_FOUND', `No station with id ${id}`);

export function createStationService(deps: { db: Db }) {
  async function write<T>(key: StationKey, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      // Two admins adding the same code at once: the unique index decides.
      if (uniqueViolation(error) !== null) throw duplicateCode(key);
      throw error;
    }
  }

  return {
    /** The station-details view's page of the register. */
    async list(query: StationRegisterQuery): Promise<{ stations: Station[]; total: number }> {
      const { rows, total } = await listStations(deps.db, query, query);
      return { stations: rows.map(presentStation), total };
    },

    async create(actor: Actor, values: StationInput): Promise<Station> {
      return write(values, () =>
        deps.db.transaction(async (tx) => {
          if (await findStationByKey(tx, values)) throw duplicateCode(values);
          const station = presentStation(await insertStation(tx, values));
          await recordAudit(tx, auditOf(actor, { action: 'station.create', entity: 'station', entityId: stationAuditId(station), before: null, after: station }));
          return station;
        }),
      );
    },

    async update(actor: Actor, id: number, values: StationInput): Promise<Station> {
      return write(values, () =>
        deps.db.transaction(async (tx) => {
          const current = await findStationById(tx, id);
          if (!current) throw notFound(id);
          const holder = await findStationByKey(tx, values);
          if (holder && holder.id !== id) throw duplicateCode(values);
          const updated = presentStation(await updateStation(tx, id, values));
          await recordAudit(
            tx,
            auditOf(actor, { action: 'station.update', entity: 'station', entityId: stationAuditId(updated), before: presentStation(current), after: updated }),
          );
          return updated;
        }),
      );
    },

    /** Curves name their stations as text, so they keep those names when a station goes. */
    async remove(actor: Actor, id: number): Promise<Station> {
      return deps.db.transaction(async (tx) => {
        const current = await findStationById(tx, id);
        if (!current) throw notFound(id);
        await deleteStation(tx, id);
        const before = presentStation(current);
        await recordAudit(tx, auditOf(actor, { action: 'station.delete', entity: 'station', entityId: stationAuditId(before), before, after: null }));
        return before;
      });
    },
  };
}

export type StationService = ReturnType<typeof createStationService>;
