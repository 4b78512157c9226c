export { FileToolsCard } from './file-tools-card.js';
