/** What other features use of the curve register (the register's import and export). */
export { curveAuditId, curveValuesOf, describeCurve, presentCurve } from './presenter.js';
export { clearHkmCodes, curveBatch, findCurvesByHkmCodes, findCurvesByKeys, upsertCurves } from './repository.js';
export { createCurveService, type CurveService } from './service.js';
