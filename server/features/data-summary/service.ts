/**
 * The Data Summary of the data-management view: how many curve records, stations and
 * inspection records there are, counted by the database (never by loading the lists) and
 * recounted only after a table changed.
 */
import { divisionScope } from '../../../common/rules/division-scope.js';
import type { PublicUser } from '../../../common/schemas/auth.js';
import type { DataSummary } from '../../../common/schemas/records.js';
import type { Db } from '../../db/client.js';
import { readTableVersions, VersionedCache } from '../../db/versioned-cache.js';
import { type CountedTable, countRows } from './repository.js';

export function createDataSummaryService({ db }: { db: Db }) {
  const counts = new VersionedCache<number>({ maxEntries: 64 });

  return {
    /** A Client's figures are their division's. */
    async summary(user: PublicUser): Promise<DataSummary> {
      const scope = divisionScope(user, undefined);
      if (scope.none) return { curveRecords: 0, stations: 0, inspectionRecords: 0 };
      const { division } = scope;
      const key = division ?? '*';
      const versions = await readTableVersions(db, ['consolidated_curve_details', 'stations', 'inspection_logs']);
      const count = (table: CountedTable) => counts.get(`${table}:${key}`, versions.get(table) ?? 0, () => countRows(db, table, division));
      const [curveRecords, stationCount, inspectionRecords] = await Promise.all([count('consolidated_curve_details'), count('stations'), count('inspection_logs')]);
      return { curveRecords, stations: stationCount, inspectionRecords };
    },
  };
}

export type DataSummaryService = ReturnType<typeof createDataSummaryService>;
