/** The owner's product documents: docs/*.md served as PDF. */
export { documentRoutes, OWNER_DOCUMENTS, type DocumentRoutesOptions } from './routes.js';
