import { describe, expect, it } from 'vitest';
import { isCompleteCofValue, maskCofValue } from './cof-value.js';
import { lineFromCode } from './line-codes.js';

describe('maskCofValue (the CoF Value mask)', () => {
  it.each([
    ['', '0.'],
    ['0', '0.'],
    ['0.', '0.'],
    ['2', '0.2'],
    ['23', '0.23'],
    ['0.2', '0.2'],
    ['0.23', '0.23'],
    ['0.234', '0.23'],
    ['0.2a3', '0.23'],
    ['abc', '0.'],
    ['.45', '0.45'],
    ['123', '0.12'],
    ['30.', '0.3'],
    ['30.1', '0.31'],
  ])('%j becomes %j', (input, expected) => {
    expect(maskCofValue(input)).toBe(expected);
  });

  it('accepts only a complete value for a record', () => {
    expect(isCompleteCofValue('0.')).toBe(false);
    expect(isCompleteCofValue('0.3')).toBe(true);
    expect(isCompleteCofValue('0.35')).toBe(true);
    expect(isCompleteCofValue('1.35')).toBe(false);
  });
});

describe('lineFromCode', () => {
  it('maps UP, DN and SL to Up, Down and Single', () => {
    expect(lineFromCode('UP')).toBe('Up');
    expect(lineFromCode('dn')).toBe('Down');
    expect(lineFromCode(' SL ')).toBe('Single');
    expect(lineFromCode('Down')).toBe('Down');
    expect(lineFromCode('XX')).toBeNull();
    expect(lineFromCode(null)).toBeNull();
  });
});
