/** The owner's product documents: docs/*.md served as PDF. */
export { documentRoutes as documentsFeature, type DocumentRoutesOptions as DocumentsFeatureOptions } from './routes.js';
