import type { Station } from '../../../common/schemas/reference.js';
import type { StationInput } from '../../../common/schemas/register.js';
import type { StationRow } from '../../db/schema.js';

/** A station row as the API shows it (common/schemas/reference.ts). */
export function presentStation(row: StationRow): Station {
  return { id: row.id, no: row.no, stationName: row.stationName, stationCode: row.stationCode, section: row.section, divisionRailway: row.divisionRailway };
}

/** The writable fields of a stored station. */
export function stationValuesOf(row: StationRow): StationInput {
  return {
    no: row.no,
    stationName: row.stationName,
    stationCode: row.stationCode,
    section: row.section,
    divisionRailway: row.divisionRailway as StationInput['divisionRailway'],
  };
}

/** "station Ratlam Jn (RTM) in section RTM-NAD": how messages name a station. */
export function describeStation(station: { stationName?: string; stationCode: string; section: string }): string {
  const name = station.stationName ? `${station.stationName} (${station.stationCode})` : station.stationCode;
  return `station ${name} in section ${station.section}`;
}

/** How the audit trail names a station: its key, 'RTM-NAD/RTM'. */
export const stationAuditId = (key: { section: string; stationCode: string }) => `${key.section}/${key.stationCode}`;
