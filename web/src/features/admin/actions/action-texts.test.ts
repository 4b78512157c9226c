import { describe, expect, it } from 'vitest';
import { ACTION_KIND_TEXT, ACTION_KINDS } from '../../../../../common/rules/follow-up-actions.js';
import { kindText } from './action-texts.js';

describe('the kinds as shown', () => {
  // The card hides `reported` when it is the kind's own name, which the server writes in the rule's English.
  it('are in English the rule’s own names', () => {
    for (const kind of ACTION_KINDS) expect(kindText(kind)).toBe(ACTION_KIND_TEXT[kind]);
  });
});
