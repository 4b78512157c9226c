export { fileToolRoutes } from './routes.js';
export { createFileToolsService, type FileToolsService } from './service.js';
