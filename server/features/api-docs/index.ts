/** The API's OpenAPI 3.1 document (GET /api/openapi.json), made from the route table. */
export { collectApiRoutes } from './document.js';
export { apiDocsRoutes as apiDocsFeature } from './routes.js';
