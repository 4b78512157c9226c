/**
 * Where the first download asks for an error's or a field message's text in the reader's
 * language. The translations (problem-texts.ts, with their catalogue) load just after the
 * first screen, off the first download's budget; until they are here a message reads as the
 * server or the schema wrote it, in English, which is never wrong, only untranslated.
 */
import { withScreenTexts } from './i18n.js';

interface ProblemTranslator {
  errorAnswerText: (code: string, message: string) => string;
  fieldProblemText: (message: string) => string;
}

let translator: ProblemTranslator | null = null;

/** An error answer's message for a person (problem-texts.ts `errorAnswerText`). */
export const errorAnswerText = (code: string, message: string): string => translator?.errorAnswerText(code, message) ?? message;

/** A field's validation message in the active language (problem-texts.ts `fieldProblemText`). */
export const fieldProblemText = (message: string): string => translator?.fieldProblemText(message) ?? message;

/** Loads the translations with their texts; the app calls it once the first screen is drawn. */
export async function loadProblemTexts(): Promise<void> {
  translator = await withScreenTexts(() => import('./problem-texts.js'))();
}
