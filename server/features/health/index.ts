/** GET /api/health: whether the database answers, the version, and whether this is a demo. */
export { healthRoutes as healthFeature } from './routes.js';
