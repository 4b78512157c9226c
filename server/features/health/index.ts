/**
 * GET /api/health (liveness: the process answers, with its database, version and demo mode) and
 * GET /api/ready (readiness: whether a load balancer should send this instance work), and the
 * shutdown state main.ts drains by.
 */
export { healthRoutes as healthFeature, type HealthFeatureOptions } from './routes.js';
export { countRequestsInFlight, createShutdownState, type RequestsInFlight, type ShutdownState } from './shutdown.js';
