export { PurposePage } from './purpose-page.js';
