/**
 * Every scenario, in the order the runner runs them. To add one: write
 * bench/scenarios/<name>.ts exporting a Scenario and list it here.
 */
import type { Scenario } from '../lib/types.js';
import { curvesList } from './curves-list.js';
import { health } from './health.js';
import { login } from './login.js';
import { upload } from './upload.js';

export const scenarios: readonly Scenario[] = [health, curvesList, login, upload];
