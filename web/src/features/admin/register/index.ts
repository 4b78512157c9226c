export { CurveDetailsView } from './curve-details-view.js';
export { useRegisterFilters } from './register-list.js';
export { RegisterSheetsCard } from './register-sheets-card.js';
export { StationDetailsView } from './station-details-view.js';
export { type Scope, ScopeFilterFields } from './scope-filter-fields.js';
