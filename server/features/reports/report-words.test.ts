/**
 * The reports' bilingual texts (report-words.ts): every text has both halves, Hindi in
 * Devanagari, one Hindi for one English, the glossary's term for each domain word, and tab
 * names Excel keeps whole; the helpers print them as the reports and the register import expect.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ACTION_KIND_TEXT, ACTION_KINDS } from '../../../common/rules/follow-up-actions.js';
import { NO_MACHINE_LABEL } from '../../../common/rules/schedule.js';
import { PROJECT_ROOT } from '../../paths.js';
import {
  ACTION_COLUMN_WORDS,
  BILINGUAL_SEPARATOR,
  type Bilingual,
  both,
  englishOf,
  joined,
  REGISTER_COLUMN_WORDS,
  REPORT_PHRASES,
  REPORT_WORDS,
  SHEET_TITLE_MAX,
  SHEET_TITLES,
  sheetTitle,
  stacked,
} from './report-words.js';

const DEVANAGARI = /[\u0900-\u097F]/;
/** Texts both languages write alike: the railway's abbreviations, kept in Latin letters (glossary). */
const SAME_IN_BOTH = new Set(['SSE', 'DEN', 'AEN', 'CoF', 'ID']);

const tables: Record<string, Readonly<Record<string, Bilingual>>> = {
  REPORT_WORDS,
  ACTION_COLUMN_WORDS,
  REGISTER_COLUMN_WORDS,
  SHEET_TITLES,
};
const everyText = Object.entries(tables).flatMap(([table, words]) => Object.entries(words).map(([key, text]) => ({ where: `${table}.${key}`, text })));

describe('the reports’ fixed texts', () => {
  it('have an English and a Hindi half, the Hindi in Devanagari (or an abbreviation both write alike)', () => {
    for (const { where, text } of everyText) {
      expect(text.en.trim(), where).toBe(text.en);
      expect(text.hi.trim(), where).toBe(text.hi);
      expect(text.en, where).not.toBe('');
      if (text.hi === text.en) expect(SAME_IN_BOTH.has(text.en), `${where}: "${text.en}" has no Hindi`).toBe(true);
      else expect(text.hi, where).toMatch(DEVANAGARI);
    }
  });

  it('never hold the separator in their Hindi half, so the English half is what follows the first " / "', () => {
    for (const { where, text } of everyText) {
      expect(text.hi, where).not.toContain(BILINGUAL_SEPARATOR);
      expect(englishOf(both(text)), where).toBe(text.en);
    }
  });

  it('give one English text one Hindi, in the reports and in the register', () => {
    // English words of two senses: a part's item (analytics) and a line of the About sheet.
    const homonyms = new Set(['Item']);
    for (const words of [[...Object.values(REPORT_WORDS), ...Object.values(ACTION_COLUMN_WORDS)], Object.values(REGISTER_COLUMN_WORDS)]) {
      const hindiOf = new Map<string, string>();
      for (const text of words) {
        if (homonyms.has(text.en)) continue;
        expect(hindiOf.get(text.en) ?? text.hi, text.en).toBe(text.hi);
        hindiOf.set(text.en, text.hi);
      }
    }
  });

  it('name the schedule’s and the actions’ own words as the product writes them', () => {
    expect(REPORT_WORDS.noMachine.en).toBe(NO_MACHINE_LABEL);
    const faults: Record<string, Bilingual> = { 'machine-not-working': REPORT_WORDS.machineNotWorking, 'part-stolen': REPORT_WORDS.partStolen, 'part-broken': REPORT_WORDS.partBroken, 'cof-high': REPORT_WORDS.cofHigh };
    for (const kind of ACTION_KINDS) expect(faults[kind]?.en, kind).toBe(ACTION_KIND_TEXT[kind]);
  });

  it('name each sheet in at most 31 characters Excel allows in a tab', () => {
    for (const [key, text] of Object.entries(SHEET_TITLES)) {
      const title = sheetTitle(text);
      expect(title.length, key).toBeLessThanOrEqual(SHEET_TITLE_MAX);
      expect(title, key).not.toMatch(/[[\]:*?/\\]/);
    }
    expect(sheetTitle(SHEET_TITLES.summary)).toBe('सारांश | Summary');
    expect(() => sheetTitle({ hi: 'अनुवर्ती कार्रवाइयाँ', en: 'Follow-up actions' })).toThrow(/longer than 31/);
  });

  it('use the glossary’s Hindi for every domain word it lists (docs/glossary.md)', () => {
    // The report's scope (its division and section) is not the rollout's scope of curves.
    const otherSense = new Set(['scope']);
    const glossary = new Map<string, string>();
    const table = readFileSync(path.join(PROJECT_ROOT, 'docs', 'glossary.md'), 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('| ') && !line.startsWith('| English') && !line.startsWith('|---'));
    const bare = (text: string) => text.replace(/\s*\([^)]*\)/g, '').trim();
    for (const line of table) {
      const [english = '', hindi = ''] = line.split('|').slice(1, 3).map(bare);
      const ens = english.split(/\s*,\s*|\s+\/\s+/);
      const his = hindi.split(/\s*,\s*|\s+\/\s+/);
      if (ens.length === his.length) ens.forEach((en, i) => glossary.set(en.toLowerCase(), his[i] ?? ''));
    }
    expect(glossary.get('division')).toBe('मंडल');
    let checked = 0;
    for (const { where, text } of everyText) {
      const term = glossary.get(text.en.toLowerCase());
      if (term === undefined || otherSense.has(text.en.toLowerCase())) continue;
      expect(bare(text.hi), `${where} "${text.en}"`).toBe(term);
      checked += 1;
    }
    expect(checked).toBeGreaterThan(20);
  });
});

describe('how a report prints them', () => {
  it('Hindi first, then English; a text both write alike once; a long one on two lines', () => {
    expect(both({ hi: 'निरीक्षण रिपोर्ट', en: 'Inspection Report' })).toBe('निरीक्षण रिपोर्ट / Inspection Report');
    expect(both(REPORT_WORDS.sse)).toBe('SSE');
    expect(stacked(REPORT_WORDS.noPhoto)).toBe('कोई फ़ोटो दर्ज नहीं की गई\nNo photo was recorded');
    expect(englishOf('मंडल/रेलवे / Division/Railway')).toBe('Division/Railway');
    expect(englishOf('Division / Railway')).toBe('Railway');
  });

  it('data in a phrase as stored, in both halves', () => {
    expect(both(joined(', ', 'RTM/WR', REPORT_PHRASES.period('2026-11-01', undefined)))).toBe('RTM/WR, 2026-11-01 से / RTM/WR, from 2026-11-01');
    expect(both(joined(', ', 'RTM/WR', 'RTM-NAD'))).toBe('RTM/WR, RTM-NAD');
    expect(both(REPORT_PHRASES.period(undefined, undefined))).toBe('सभी तिथियाँ / all dates');
    expect(both(REPORT_PHRASES.page(2, 5))).toBe('पृष्ठ 2 (कुल 5) / Page 2 of 5');
  });
});
