import { describe, expect, it } from 'vitest';
import { isPhoneNumber, newPasswordProblem, PASSWORD_TEXTS } from './user-password.js';

describe('isPhoneNumber', () => {
  it.each([
    ['9876543210', '9876543210'],
    ['+919876543210', '9876543210'],
    ['9876543210', '+919876543210'],
    ['+91 98765 43210', '+919876543210'],
    ['098765-43210', '9876543210'],
    ['(0) 98765 43210', '9876543210'],
  ])('%s is the phone %s', (password, phone) => {
    expect(isPhoneNumber(password, phone)).toBe(true);
  });

  it.each<[string, string | null, string]>([
    ['9876543211', '9876543210', 'another number'],
    ['9876543210a', '9876543210', 'digits with letters'],
    ['my 9876543210', '9876543210', 'the number inside a phrase'],
    ['9876543210', null, 'no phone on record'],
    ['12345678', '912345678', 'short numbers compared whole'],
  ])('%s is not the phone %s (%s)', (password, phone) => {
    expect(isPhoneNumber(password, phone)).toBe(false);
  });
});

describe('newPasswordProblem', () => {
  const owner = { employeeId: 'TEC20011', phone: '+919876543210' };

  it('refuses the employee ID in any case and with spaces around it', () => {
    for (const password of ['TEC20011', 'tec20011', ' Tec20011 ']) {
      expect(newPasswordProblem(password, owner)).toBe(PASSWORD_TEXTS.isEmployeeId);
    }
  });

  it('refuses the phone number however it is written', () => {
    expect(newPasswordProblem('98765 43210', owner)).toBe(PASSWORD_TEXTS.isPhone);
  });

  it('refuses the current password, when it is given', () => {
    expect(newPasswordProblem('same old one', owner, 'same old one')).toBe(PASSWORD_TEXTS.sameAsCurrent);
    expect(newPasswordProblem('same old one', owner)).toBeNull();
  });

  it('accepts anything else', () => {
    expect(newPasswordProblem('TEC20011 rail', owner, 'old one')).toBeNull();
  });
});
