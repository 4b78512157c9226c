/**
 * The fonts embedded in every PDF report (subset by pdfkit, so a report carries only the
 * glyphs it uses). PDF viewers have no font fallback, so text is cut into runs, each drawn
 * with the first font of the chain that has its characters: Latin, then the scripts of the
 * divisions' regions (Devanagari for Hindi and Marathi, Gurmukhi for Punjabi, Gujarati).
 * The files are Noto Sans (SIL Open Font License, see fonts/OFL.txt), kept in the repository
 * so a report prints the same on every machine.
 */
import path from 'node:path';
import type { Font } from 'fontkit';
import { lazyModule } from '../lazy-module.js';
import { FONTS_DIR } from '../paths.js';

/** fontkit, loaded with the first report or demo photo rather than at start: await it before anything below. */
export const loadFontkit = lazyModule('fontkit', () => import('fontkit'));

export type Weight = 'regular' | 'bold';

interface Face {
  /** The name registered with pdfkit. */
  name: string;
  file: string;
  font: Font;
}

const FAMILIES = ['NotoSans', 'NotoSansDevanagari', 'NotoSansGurmukhi', 'NotoSansGujarati'] as const;

function load(family: string, weight: Weight): Face {
  const file = path.join(FONTS_DIR, `${family}-${weight === 'bold' ? 'Bold' : 'Regular'}.ttf`);
  const font = loadFontkit.loaded().openSync(file);
  if (!('hasGlyphForCodePoint' in font)) throw new Error(`${file} is a font collection, not a font`);
  return { name: `${family}-${weight}`, file, font };
}

const chains: Partial<Record<Weight, Face[]>> = {};
/** Opened on first use: the fonts are parsed once per process. */
function chainOf(weight: Weight): Face[] {
  return (chains[weight] ??= FAMILIES.map((family) => load(family, weight)));
}

/** Every font file, for registering with a document. */
export function fontFaces(): { name: string; file: string }[] {
  return [...chainOf('regular'), ...chainOf('bold')].map(({ name, file }) => ({ name, file }));
}

/**
 * Whether text drawn in the face `name` needs its characters stated beside its glyphs. Indic
 * shaping reorders glyphs (the vowel sign ि is drawn before its consonant, a reph above the
 * next one) and merges conjuncts (ष्ठ), so a reader that maps glyphs back to characters (text
 * selection, search, pdftotext) would get "विरष्ठ" for "वरिष्ठ"; such runs carry their text as
 * ActualText. The Latin face maps glyph for character and needs none.
 */
export const needsActualText = (name: string): boolean => FAMILIES.slice(1).some((family) => name.startsWith(`${family}-`));

/** The name of the Latin face, whose metrics place lines. */
export const baseFontName = (weight: Weight) => chainOf(weight)[0]!.name;

/** The face a run of runsOf names, for drawing its glyphs outside a PDF (the demo photos' overlay). */
export function fontNamed(name: string, weight: Weight): Font {
  const face = chainOf(weight).find((f) => f.name === name);
  if (!face) throw new Error(`No font named ${name}`);
  return face.font;
}

const ascents = new Map<Weight, number>();
/** The Latin face's ascender as a share of the font size: where the baseline sits below a line's top. */
export function baseAscent(weight: Weight): number {
  let ascent = ascents.get(weight);
  if (ascent === undefined) {
    const face = chainOf(weight)[0]!.font;
    ascent = face.ascent / face.unitsPerEm;
    ascents.set(weight, ascent);
  }
  return ascent;
}

export interface TextRun {
  font: string;
  text: string;
}

/**
 * `text` cut into runs of one font each. A character stays in the current run while that font
 * has it (spaces, digits and marks between words of one script), else goes to the first font
 * of the chain that has it; one no font has is left to the Latin face.
 */
export function runsOf(text: string, weight: Weight): readonly TextRun[] {
  // Reports repeat their labels and many values on every record: cut each string once.
  const key = `${weight}\u0000${text}`;
  const known = runCache.get(key);
  if (known) return known;
  const runs = cutIntoRuns(text, weight);
  if (runCache.size >= RUN_CACHE_SIZE) runCache.clear();
  runCache.set(key, runs);
  return runs;
}

const RUN_CACHE_SIZE = 20_000;
const runCache = new Map<string, readonly TextRun[]>();

function cutIntoRuns(text: string, weight: Weight): TextRun[] {
  const chain = chainOf(weight);
  const runs: TextRun[] = [];
  let current: Face | undefined;
  let buffer = '';
  for (const char of text) {
    const code = char.codePointAt(0)!;
    let face = current && current.font.hasGlyphForCodePoint(code) ? current : chain.find((f) => f.font.hasGlyphForCodePoint(code));
    face ??= current ?? chain[0]!;
    if (face !== current) {
      if (current && buffer) runs.push({ font: current.name, text: buffer });
      current = face;
      buffer = '';
    }
    buffer += char;
  }
  if (current && buffer) runs.push({ font: current.name, text: buffer });
  return runs;
}
