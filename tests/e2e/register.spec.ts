import { registerTests } from './register-flows.js';

registerTests('phone');
