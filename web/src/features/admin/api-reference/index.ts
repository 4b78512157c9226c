export { ApiReferenceView } from './api-reference.js';
