import { describe, expect, it } from 'vitest';
import { leavesNoAdmin } from './admin-guard.js';

describe('leavesNoAdmin (an admin cannot leave the system with no admin)', () => {
  it('refuses demoting or removing the last admin', () => {
    expect(leavesNoAdmin([1], { userId: 1, newRole: 'Technician' })).toBe(true);
    expect(leavesNoAdmin([1], { userId: 1, newRole: null })).toBe(true);
  });

  it('allows it while another admin remains, and any change to a non-admin', () => {
    expect(leavesNoAdmin([1, 2], { userId: 1, newRole: 'Client' })).toBe(false);
    expect(leavesNoAdmin([1], { userId: 7, newRole: null })).toBe(false);
    expect(leavesNoAdmin([1], { userId: 1, newRole: 'Admin' })).toBe(false);
  });
});
