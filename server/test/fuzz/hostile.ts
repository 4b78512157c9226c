/**
 * Hostile inputs: the strings, numbers and shapes that break servers. Big strings are made
 * once and shared, so a run does not spend its time building megabytes.
 */
import fc from 'fast-check';

/** Percent-encodes any string, lone surrogates too (encodeURIComponent throws on those). */
export function encode(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return [...Buffer.from(value, 'utf8')].map((b) => `%${b.toString(16).padStart(2, '0').toUpperCase()}`).join('');
  }
}

const MEGABYTE = 1024 * 1024;
// Just under the 1 MB JSON body limit, so a body holding it reaches the validators; the next is over it.
const BIG_ASCII = 'A'.repeat(1_000_000);
const BIG_UNICODE = '\u202Eञ्च'.repeat(MEGABYTE / 8);
/** An own `__proto__` key (an object literal would set the prototype instead). */
const PROTO_KEY: unknown = JSON.parse('{"__proto__":{"isOwner":true,"role":"Admin"}}');
const LONG_ID = 'INS-20250101-'.padEnd(5000, 'Z');

/** Strings a text field should refuse or store as they are, but never answer with a 5xx. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '   \t  ',
    '\u0000',
    'abc\u0000def',
    '\u0001\u0002\u0007\u001b[31m\u007f',
    '\r\n\r\n',
    'line1\nline2',
    // Right-to-left override, bidi isolates, Arabic and Hebrew.
    '\u202Eexe.gpj',
    '\u2067مرحبا\u2069',
    'שלום עולם',
    // Combining marks stacked on one letter, and a zalgo run.
    'e\u0301\u0301\u0301\u0301\u0301',
    'Z\u0351\u0352\u0357\u035b\u0363\u0364\u0365\u0366\u0367\u0368\u0369\u036a',
    // Lone surrogates, a BOM, zero-width characters, an emoji family.
    '\uD800',
    '\uDFFF abc',
    '\uFEFFRTM/WR',
    'RTM\u200B/WR',
    '👨‍👩‍👧‍👦🚂',
    // Look like numbers, dates, booleans or nothing.
    'NaN',
    'Infinity',
    '-Infinity',
    '1e309',
    '-0',
    '0x1F',
    '1_000',
    '９',
    'null',
    'undefined',
    'true',
    '2025-02-30',
    '2025-13-01',
    '99999-01-01',
    '0000-00-00',
    // Injection-shaped text.
    "' OR 1=1 --",
    '"; drop table users; --',
    '%',
    '%%',
    '%00',
    '%2e%2e%2f',
    '../../etc/passwd',
    '..\\..\\windows',
    '<script>alert(1)</script>',
    '${7*7}{{7*7}}',
    '__proto__',
    'constructor',
    'all',
    'ALL',
    '=1+1',
    '@SUM(A1)',
  ),
  fc.constantFrom(BIG_ASCII, BIG_UNICODE, LONG_ID, 'x'.repeat(101), 'x'.repeat(65 * 1024)),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
);

/** Numbers out of range, negative, huge and not quite numbers (NaN and Infinity become null in JSON). */
export const hostileNumber: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(0, -1, -0, 1.5, 0.1, -2147483649, 2147483648, 2 ** 53, -(2 ** 53), Number.MAX_SAFE_INTEGER + 2, 1e308, -1e308, 5e-324, Number.NaN, Number.POSITIVE_INFINITY),
  fc.integer(),
  fc.double({ noNaN: false }),
);

/** Any JSON value of the wrong kind, shape or size. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: hostileString, weight: 4 },
  { arbitrary: hostileNumber, weight: 2 },
  { arbitrary: fc.constantFrom(null, true, false, [], {}, [null], [[]], { '': '' }, PROTO_KEY, { constructor: { prototype: { x: 1 } } }), weight: 2 },
  { arbitrary: fc.array(fc.oneof(hostileString, fc.integer()), { maxLength: 4 }), weight: 1 },
  { arbitrary: fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }), weight: 1 },
  { arbitrary: fc.constant(Array.from({ length: 600 }, (_, i) => `INS-${i}`)), weight: 1 },
);

/** Path segments aimed at the router and at whatever builds a file path from a parameter. */
export const hostileSegment: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '..',
    '../..',
    '..%2F..%2Fetc%2Fpasswd',
    '%2e%2e',
    '%2F',
    'a%2Fb',
    '%00',
    'a%00b',
    '%',
    '%zz',
    '%C0%AF',
    '%E2%80%AE',
    '%F0%9F%9A%82',
    '%20',
    '.',
    '~',
    ';',
    '*',
    '%3F',
    '%23',
    'null',
    '-1',
    '0',
    '1.5',
    '1e3',
    '2147483648',
    '99999999999999999999999',
    'NaN',
    '00000000-0000-0000-0000-000000000000',
    'ffffffff-ffff-ffff-ffff-ffffffffffff',
  ),
  fc.constantFrom('Z'.repeat(101), 'Z'.repeat(5000), encode(LONG_ID)),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 }).map(encode),
);

/** Raw query strings (without the '?'): repeated keys, broken escapes, odd separators. */
export const hostileQuery = (keys: readonly string[]): fc.Arbitrary<string> => {
  const key = keys.length > 0 ? fc.oneof(fc.constantFrom(...keys), fc.constantFrom('x', '__proto__', 'constructor', '')) : fc.constantFrom('x', 'limit', '__proto__', '');
  return fc.oneof(
    fc.tuple(key, fc.array(fc.oneof(hostileSegment, fc.constantFrom('1', '0', '-5', 'all', '')), { minLength: 2, maxLength: 4 })).map(([k, vs]) =>
      vs.map((v) => `${k}=${v}`).join('&'),
    ),
    fc.tuple(key, hostileSegment).map(([k, v]) => `${k}=${v}`),
    fc.tuple(key, hostileString).map(([k, v]) => `${encode(k)}=${encode(v.slice(0, 70_000))}`),
    fc.constantFrom('&&&', '=', '==', '&=&', 'a[b]=c', 'a[]=1&a[]=2', 'limit', 'limit=', '%', '%%=%%', '?', '#frag', `x=${'y'.repeat(100_000)}`),
  );
};

/** JSON texts that do not parse, or parse to something no handler expects. */
export const brokenJson: fc.Arbitrary<string> = fc.constantFrom(
  '',
  ' ',
  '{',
  '}',
  '{"a":}',
  '{"a":1,}',
  "{'a':1}",
  '[1,2',
  'nul',
  'undefined',
  'NaN',
  '{"a":NaN}',
  '{"a":Infinity}',
  '\uFEFF{}',
  '{"a":"\\ud800"}',
  '{"a":"\\u0000"}',
  '{"__proto__":{"isOwner":true}}',
  '{"constructor":{"prototype":{"isOwner":true}}}',
  '{"a":1,"a":2}',
  `${'['.repeat(5000)}${']'.repeat(5000)}`,
  `${'{"a":'.repeat(2000)}1${'}'.repeat(2000)}`,
  '"just a string"',
  '12345',
  'true',
  'null',
  '[]',
  '\u0000',
  '{"a":"b"}garbage',
);
