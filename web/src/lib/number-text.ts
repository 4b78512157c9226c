import { activeLanguage, type Language } from './i18n.js';

/**
 * The screens' counts and the outbox's times have always used India's conventions in English
 * (lakh grouping "1,23,456", "4 Mar 2025, 11:00 am"), not intlLocale()'s en-GB: English keeps
 * them, Hindi gets the same conventions in its own words. Digits stay Latin in both.
 */
const INDIAN_LOCALES: Readonly<Record<Language, string>> = { en: 'en-IN', hi: 'hi-IN' };

export const indianLocale = (): string => INDIAN_LOCALES[activeLanguage()];

/** A count as the screens show it: "1,23,456". */
export function countText(value: number): string {
  return value.toLocaleString(indianLocale());
}
