/**
 * The reports' bilingual texts as tests expect them, found by their English half, which is the
 * spec's text: `bi('Division')` is "मंडल / Division" as server/features/reports/report-words.ts
 * pairs it. A test that writes the English it expects still fails when a report prints a text
 * without its Hindi, with another text's Hindi, or English that is not the spec's (no pair has it).
 */
import {
  ACTION_COLUMN_WORDS,
  BILINGUAL_SEPARATOR,
  type Bilingual,
  both,
  REGISTER_COLUMN_WORDS,
  REPORT_WORDS,
  SHEET_TITLES,
  sheetTitle,
} from '../features/reports/report-words.js';

const REPORT_TEXTS: readonly Bilingual[] = [...Object.values(REPORT_WORDS), ...Object.values(ACTION_COLUMN_WORDS)];

function pairOf(english: string, words: readonly Bilingual[]): Bilingual {
  const found = new Set(words.filter((w) => w.en === english).map((w) => w.hi));
  if (found.size !== 1) throw new Error(`${found.size === 0 ? 'no' : 'more than one'} report text has the English "${english}"`);
  return { hi: [...found][0]!, en: english };
}

/** A fixed text of the reports as printed, by its English: "मंडल / Division". */
export const bi = (english: string): string => both(pairOf(english, REPORT_TEXTS));

/** A register column's title as the export writes it, by its English (the spec's field name): "कर्व नंबर / Curve Number". */
export const registerBi = (english: string): string => both(pairOf(english, Object.values(REGISTER_COLUMN_WORDS)));

/** A sheet's tab name, by its English: "सारांश | Summary". */
export const sheetBi = (english: string): string => sheetTitle(pairOf(english, Object.values(SHEET_TITLES)));

/** Devanagari, the script of the Hindi halves. */
export const DEVANAGARI = /[\u0900-\u097F]/;

/** The English half of a bilingual text; throws when the text has no Hindi half before it. */
export function englishHalf(text: string): string {
  const at = text.indexOf(BILINGUAL_SEPARATOR);
  if (at < 0 || !DEVANAGARI.test(text.slice(0, at))) throw new Error(`"${text}" is not "हिंदी / English"`);
  return text.slice(at + BILINGUAL_SEPARATOR.length);
}

/** A header row in English, each cell checked to be as `bi` prints it. */
export const englishHeaders = (cells: readonly unknown[]): string[] =>
  cells.map((cell) => {
    const text = String(cell);
    const english = text.includes(BILINGUAL_SEPARATOR) ? englishHalf(text) : text;
    if (bi(english) !== text) throw new Error(`the header "${text}" is not the report text "${bi(english)}"`);
    return english;
  });
