export { UpdatePrompt } from './update-prompt.js';
