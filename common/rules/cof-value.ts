/**
 * The CoF Value mask: the field always reads '0.' followed by at most two
 * digits. Empty or '0' becomes '0.'; a bare one or two digits become '0.' plus those digits;
 * anything else keeps only what fits the form.
 */
export const COF_VALUE_DEFAULT = '0.';

export function maskCofValue(input: string): string {
  const text = input.trim();
  if (text === '' || text === '0' || text === '0.') return COF_VALUE_DEFAULT;
  if (/^\d{1,2}$/.test(text)) return `${COF_VALUE_DEFAULT}${text}`;
  if (text.startsWith('0.')) return COF_VALUE_DEFAULT + text.slice(2).replace(/\D/g, '').slice(0, 2);
  // A digit typed with the caret before the fixed '0.' ('30.' from '0.' + '3'): the digits
  // around the prefix are the value, in the order they stand.
  const prefixAt = text.indexOf('0.');
  if (prefixAt > 0) {
    const rest = text.slice(0, prefixAt) + text.slice(prefixAt + 2);
    return COF_VALUE_DEFAULT + rest.replace(/\D/g, '').slice(0, 2);
  }
  // Pasted or mistyped text: keep its first two digits after any leading zeros and point.
  const digits = text.replace(/^0*\.?/, '').replace(/\D/g, '').slice(0, 2);
  return COF_VALUE_DEFAULT + digits;
}

/** A complete CoF value: '0.' and one or two digits. */
export const COF_VALUE_PATTERN = /^0\.\d{1,2}$/;

export function isCompleteCofValue(value: string): boolean {
  return COF_VALUE_PATTERN.test(value);
}
