import { describe, expect, it } from 'vitest';
import { parseRange } from './http-range.js';

describe('parseRange', () => {
  it.each([
    ['bytes=0-99', { start: 0, end: 99 }],
    ['bytes=100-', { start: 100, end: 999 }],
    ['bytes=-50', { start: 950, end: 999 }],
    ['bytes=-5000', { start: 0, end: 999 }],
    ['bytes=990-5000', { start: 990, end: 999 }],
    [' bytes=5-5 ', { start: 5, end: 5 }],
  ])('%s of 1000 bytes', (header, range) => {
    expect(parseRange(header, 1000)).toEqual(range);
  });

  it.each(['bytes=1000-', 'bytes=1000-1200', 'bytes=-0', 'bytes=9-3'])('%s of 1000 bytes cannot be served', (header) => {
    expect(parseRange(header, 1000)).toBe('unsatisfiable');
  });

  it.each([undefined, 'bytes=0-9,20-29', 'items=0-9', 'bytes=-', 'bytes=a-b', ''])('%s means the whole file', (header) => {
    expect(parseRange(header, 1000)).toBeNull();
  });
});
