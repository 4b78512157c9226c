/** Writes docs/configuration.md from server/config.ts (server/config-reference.ts). */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { CONFIGURATION_REFERENCE_PATH, renderConfigurationReference } from '../server/config-reference.js';
import { PROJECT_ROOT } from '../server/paths.js';

await writeFile(path.join(PROJECT_ROOT, CONFIGURATION_REFERENCE_PATH), renderConfigurationReference());
console.log(`Wrote ${CONFIGURATION_REFERENCE_PATH}`);
