/**
 * The interface's language (docs/architecture.md, 'Texts and languages'): Lingui's runtime with the
 * catalogues of web/src/locales, which the build compiles from .po files.
 *
 * English is in the first download (the spec's texts, what most sessions start with); Hindi
 * loads when chosen, and the service worker's precache keeps it for offline use. Each language
 * has two catalogues, so the technician's phone never downloads the admin views' texts: the
 * admin views ask for theirs with `loadAdminTexts` before they render.
 */
import { i18n, type Messages } from '@lingui/core';
import { LANGUAGES, type Language } from '../../../common/constants.js';
import { messages as englishAppTexts } from '../locales/en/app.po';
import { readItem, writeItem } from './safe-storage.js';
import { LANGUAGE_KEY, LANGUAGE_UNSAVED_KEY } from './storage-keys.js';

export { i18n };

export { LANGUAGES, type Language };

/** Each language named in its own script, as the switch shows it (GIGW 3.0: a reader finds their own). */
// eslint-disable-next-line lingui/no-unlocalized-strings -- each language's own name, the same in every language
export const LANGUAGE_NAMES: Readonly<Record<Language, string>> = { en: 'English', hi: 'हिंदी' };

/** The Intl locale of each language: dates "21 Nov 2026" / "21 नव॰ 2026", digits stay Latin in both. */
const INTL_LOCALES: Readonly<Record<Language, string>> = { en: 'en-GB', hi: 'hi-IN' };

type CataloguePart = 'app' | 'field' | 'admin';

const CATALOGUES: Readonly<Record<Language, Record<CataloguePart, () => Promise<Messages>>>> = {
  en: {
    app: () => Promise.resolve(englishAppTexts),
    field: () => import('../locales/en/field.po').then((m) => m.messages),
    admin: () => import('../locales/en/admin.po').then((m) => m.messages),
  },
  hi: {
    app: () => import('../locales/hi/app.po').then((m) => m.messages),
    field: () => import('../locales/hi/field.po').then((m) => m.messages),
    admin: () => import('../locales/hi/admin.po').then((m) => m.messages),
  },
};

const wantedParts = new Set<CataloguePart>(['app']);
const loadedParts = new Set<string>();

async function loadParts(language: Language, parts: Iterable<CataloguePart>): Promise<void> {
  await Promise.all(
    [...parts].map(async (part) => {
      const key = `${language}:${part}`;
      if (loadedParts.has(key)) return;
      i18n.load(language, await CATALOGUES[language][part]());
      loadedParts.add(key);
    }),
  );
}

export const isLanguage = (value: unknown): value is Language => LANGUAGES.some((language) => language === value);

export const activeLanguage = (): Language => (isLanguage(i18n.locale) ? i18n.locale : 'en');

/** The Intl locale for dates and numbers in the active language. */
export const intlLocale = (): string => INTL_LOCALES[activeLanguage()];

/** The language this device last chose; English before any choice. */
export function deviceLanguage(): Language {
  const stored = readItem('local', LANGUAGE_KEY);
  return isLanguage(stored) ? stored : 'en';
}

/** A choice made on this device that the user's account has not stored yet (signed out, or offline). */
export const hasUnsavedLanguage = (): boolean => readItem('local', LANGUAGE_UNSAVED_KEY) === '1';

export function markLanguageSaved(): void {
  writeItem('local', LANGUAGE_UNSAVED_KEY, '0');
}

/**
 * Shows the interface in `language`: loads its catalogues first (so no screen flashes keys),
 * then switches every text at once, and sets the page's `lang` so screen readers and fonts
 * follow. `unsaved` marks a choice the user's account has still to store.
 */
export async function applyLanguage(language: Language, { unsaved = false }: { unsaved?: boolean } = {}): Promise<void> {
  switchingTo = language;
  // A screen may ask for another catalogue while these load: load until every wanted one is here.
  while ([...wantedParts].some((part) => !loadedParts.has(`${language}:${part}`))) await loadParts(language, wantedParts);
  if (switchingTo !== language) return; // a later choice won
  switchingTo = null;
  i18n.activate(language);
  document.documentElement.lang = language;
  writeItem('local', LANGUAGE_KEY, language);
  if (unsaved) writeItem('local', LANGUAGE_UNSAVED_KEY, '1');
}

/** The language a switch is loading, while it loads. */
let switchingTo: Language | null = null;

/** Loads `parts` in the active language (and the one being switched to) now, and in any language chosen later. */
async function wantParts(parts: readonly CataloguePart[]): Promise<void> {
  for (const part of parts) wantedParts.add(part);
  await Promise.all([loadParts(activeLanguage(), parts), switchingTo === null ? null : loadParts(switchingTo, parts)]);
}

/**
 * A lazily loaded technician screen's code together with its texts (the `field` catalogue,
 * lingui.config.ts): the screen renders only once both are here, so it never shows a bare key.
 */
export function withScreenTexts<T>(load: () => Promise<T>): () => Promise<T> {
  return () => Promise.all([load(), wantParts(['field'])]).then(([loaded]) => loaded);
}

/** The admin views' texts (they also show technician screens' parts, such as the machine dashboard). */
export const loadAdminTexts = (): Promise<void> => wantParts(['field', 'admin']);

/** English is ready before the first render without waiting; the device's other choice loads first. */
export async function startLanguage(): Promise<void> {
  i18n.load('en', englishAppTexts);
  loadedParts.add('en:app');
  i18n.activate('en');
  const language = deviceLanguage();
  if (language !== 'en') await applyLanguage(language);
}
