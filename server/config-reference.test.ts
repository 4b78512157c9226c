import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { envSchema } from './config.js';
import { CONFIGURATION_REFERENCE_PATH, renderConfigurationReference, settingReferences } from './config-reference.js';
import { PROJECT_ROOT } from './paths.js';

describe('the configuration reference (docs/configuration.md)', () => {
  it('describes every setting the schema reads, and only those', () => {
    const references = settingReferences();
    expect(references.map((s) => s.name)).toEqual(Object.keys(envSchema.shape));
    const undescribed = references.filter((s) => s.does.trim().length < 10).map((s) => s.name);
    expect(undescribed, 'settings without a description in SETTING_DESCRIPTIONS (server/config.ts)').toEqual([]);
  });

  it('explains "unset" only for settings without a default, where unset means something', () => {
    const contradicting = settingReferences().filter((s) => s.default !== undefined && s.unset !== undefined).map((s) => s.name);
    expect(contradicting).toEqual([]);
  });

  it('gives each setting its type and default from the schema', () => {
    const byName = new Map(settingReferences().map((s) => [s.name, s]));
    expect(byName.get('PORT')).toMatchObject({ type: 'whole number, 1-65535', default: '`5000`' });
    expect(byName.get('BLOB_STORE')).toMatchObject({ type: 'one of `disk`, `s3`', default: '`disk`' });
    expect(byName.get('SESSION_TTL')).toMatchObject({ type: expect.stringMatching(/^duration/), default: '`7d`' });
    expect(byName.get('S3_ENDPOINT')).toMatchObject({ type: 'URL', default: undefined });
    expect(byName.get('DEMO')).toMatchObject({ type: expect.stringMatching(/^boolean/), default: undefined });
    expect(byName.get('OWNER_EMPLOYEE_IDS')?.default).toBe('empty');
  });

  it('is the committed file, word for word: run `npm run docs:config` after changing a setting', async () => {
    const committed = await readFile(path.join(PROJECT_ROOT, CONFIGURATION_REFERENCE_PATH), 'utf8');
    expect(committed === renderConfigurationReference(), `${CONFIGURATION_REFERENCE_PATH} differs from server/config.ts: run \`npm run docs:config\``).toBe(true);
  });

  it('is what the README points to for the full list', async () => {
    const readme = await readFile(path.join(PROJECT_ROOT, 'README.md'), 'utf8');
    expect(readme).toContain(`](${CONFIGURATION_REFERENCE_PATH})`);
  });
});
