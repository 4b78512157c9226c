/**
 * The catalogues are whole and current (docs/architecture.md, 'Texts and languages'). every text the
 * code marks for translation is in each language's catalogue, Hindi has no text English lacks
 * or the reverse, no Hindi text is empty, and each keeps its English text's placeholders.
 * A text written outside the catalogue is ESLint's (lingui/no-unlocalized-strings).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { formatter } from '@lingui/format-po';
import { afterAll, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const CATALOGUES = ['app', 'field', 'admin'] as const;
const po = formatter({ lineNumbers: false });

type Entries = Record<string, { message?: string; translation?: string }>;

async function read(file: string): Promise<Entries> {
  const parsed = await po.parse(readFileSync(file, 'utf8'), { locale: null, sourceLocale: 'en', filename: file });
  return (parsed ?? {}) as Entries;
}

/** A catalogue's English texts, sorted: what a failure names. */
const texts = (entries: Entries) => Object.entries(entries).map(([id, entry]) => entry.message ?? id).sort();
const catalogue = (directory: string, language: string, name: string) => path.join(directory, language, `${name}.po`);
/** `{name}` placeholders and the plural/select argument names a text uses. */
const placeholders = (text: string) => [...text.matchAll(/\{(\w+)[,}]/g)].map((m) => m[1]).sort();

const fresh = mkdtempSync(path.join(tmpdir(), 'catalogues-'));
afterAll(() => rmSync(fresh, { recursive: true, force: true }));

describe('the interface catalogues', () => {
  it('hold exactly the texts the code marks, in English and Hindi alike', { timeout: 120_000 }, async () => {
    // Extract afresh into a scratch folder with the project's own configuration.
    const config = path.join(fresh, 'lingui.config.ts');
    writeFileSync(
      config,
      [
        `import base from ${JSON.stringify(path.join(root, 'lingui.config.ts'))};`,
        `export default { ...base, rootDir: ${JSON.stringify(root)}, catalogs: base.catalogs.map((c) => ({ ...c, path: c.path.replace('<rootDir>/web/src/locales', ${JSON.stringify(fresh)}) })) };`,
      ].join('\n'),
    );
    execFileSync(process.execPath, [path.join(root, 'node_modules/@lingui/cli/dist/lingui.js'), 'extract', '--config', config], {
      cwd: root,
      stdio: 'pipe',
    });
    for (const name of CATALOGUES) {
      const extracted = texts(await read(catalogue(fresh, 'en', name)));
      for (const language of ['en', 'hi']) {
        const committed = texts(await read(catalogue(path.join(root, 'web/src/locales'), language, name)));
        expect(committed, `${language}/${name}.po is not current: run npm run i18n:extract`).toEqual(extracted);
      }
    }
  });

  it.each(CATALOGUES)('%s: every Hindi text is there, with the placeholders of its English', async (name) => {
    const english = await read(catalogue(path.join(root, 'web/src/locales'), 'en', name));
    const hindi = await read(catalogue(path.join(root, 'web/src/locales'), 'hi', name));
    const missing = Object.keys(english)
      .filter((id) => !hindi[id]?.translation?.trim())
      .map((id) => english[id]?.message ?? id);
    expect(missing, `Hindi texts missing in hi/${name}.po`).toEqual([]);
    for (const [id, entry] of Object.entries(hindi)) {
      const source = english[id]?.translation || english[id]?.message || id;
      expect(placeholders(entry.translation ?? ''), `placeholders of "${source}"`).toEqual(placeholders(source));
    }
  });
});
