/** What other features use of the station register (the register's import and export). */
export { describeStation, presentStation, stationAuditId, stationValuesOf } from './presenter.js';
export { findStationsByKeys, stationBatch, upsertStations } from './repository.js';
export { createStationService, type StationService } from './service.js';
