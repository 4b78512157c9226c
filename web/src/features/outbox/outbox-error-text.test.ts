import { generateMessageId } from '@lingui/message-utils/generateMessageId';
import { afterEach, describe, expect, it } from 'vitest';
import { i18n } from '../../lib/i18n.js';
import { outboxErrorText } from './outbox-error-text.js';
import { classifyUploadError } from './send-record.js';
import { UploadError } from './upload-inspection.js';

const OWN_REASONS = [
  new UploadError(401, null),
  new UploadError(403, null, 'PASSWORD_CHANGE_REQUIRED'),
  new UploadError(413, null),
  new UploadError(400, null),
  new UploadError(503, null),
  new DOMException('timed out', 'TimeoutError'),
  new TypeError('Failed to fetch'),
].map((error) => classifyUploadError(error).message);

afterEach(() => {
  i18n.activate('en');
});

describe("the outbox's reasons in the reader's language", () => {
  it('reads every reason of its own in English exactly as it is stored', () => {
    expect(OWN_REASONS).toContain('The server refused the record (400).');
    expect(OWN_REASONS).toContain('The server could not take the record now (503).');
    for (const reason of OWN_REASONS) expect(outboxErrorText(reason)).toBe(reason);
  });

  it("shows the server's own words as they came", () => {
    expect(outboxErrorText('The request is not valid: Curve not found')).toBe('The request is not valid: Curve not found');
    expect(outboxErrorText('The server refused the record (soon).')).toBe('The server refused the record (soon).');
  });

  it('translates a reason stored in English, with its status, once another language is shown', () => {
    const source = 'The server refused the record ({refused}).';
    i18n.load('xx', { [generateMessageId(source)]: 'REFUSED {refused}' });
    i18n.activate('xx');
    expect(outboxErrorText('The server refused the record (422).')).toBe('REFUSED 422');
  });
});
