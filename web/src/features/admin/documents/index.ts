export { OwnerDocumentsCard } from './owner-documents.js';
