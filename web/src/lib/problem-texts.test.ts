import { describe, expect, it } from 'vitest';
import { ERRORS, type ErrorCode } from '../../../common/errors.js';
import { i18n } from './i18n.js';
import { messages as hindiFieldTexts } from '../locales/hi/field.po';
import { ERROR_TEXTS, errorAnswerText, fieldProblemText } from './problem-texts.js';

describe('error and validation texts in the reader language', () => {
  it('writes every code of the error catalogue in English exactly as the server does', () => {
    const codes = Object.keys(ERRORS) as ErrorCode[];
    expect(Object.keys(ERROR_TEXTS).sort()).toEqual([...codes].sort());
    for (const code of codes) expect(i18n._(ERROR_TEXTS[code])).toBe(ERRORS[code].message);
  });

  it('shows the server message as sent in English, and the code or message translated in Hindi', () => {
    expect(errorAnswerText('FORBIDDEN', 'Demo mode is off')).toBe('Demo mode is off');
    i18n.load('hi', hindiFieldTexts);
    i18n.activate('hi');
    const forbidden = errorAnswerText('FORBIDDEN', ERRORS.FORBIDDEN.message);
    expect(forbidden).not.toBe(ERRORS.FORBIDDEN.message);
    expect(forbidden).toMatch(/[\u0900-\u097F]/);
    // A specific message the catalogue lacks falls back to its code's text, never to a key.
    expect(errorAnswerText('FORBIDDEN', 'Some newer reason')).toBe(forbidden);
    // An unknown code keeps the server's words.
    expect(errorAnswerText('SOMETHING_NEW', 'Something new')).toBe('Something new');
  });

  it('translates the shared schemas field messages by their English text', () => {
    expect(fieldProblemText('Employee ID is required')).toBe('Employee ID is required');
    i18n.load('hi', hindiFieldTexts);
    i18n.activate('hi');
    expect(fieldProblemText('Employee ID is required')).toMatch(/[\u0900-\u097F]/);
    expect(fieldProblemText('A message no catalogue has')).toBe('A message no catalogue has');
  });
});
