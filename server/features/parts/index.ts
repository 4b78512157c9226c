/** The machine-parts catalogue, read when a technician reports a broken or stolen part. */
export { partRoutes as partsFeature } from './routes.js';
