import { readFileSync } from 'node:fs';
import path from 'node:path';
import { formatter } from '@lingui/format-po';
import { type APIRequestContext, expect, type Page } from '@playwright/test';
import { ADMIN, DEMO_PASSWORD } from './helpers.js';

const LOCALES = path.resolve(import.meta.dirname, '../../web/src/locales/hi');

let hindi: ReadonlyMap<string, string> | null = null;

/**
 * The Hindi the app shows for one of its English texts, read from the Hindi catalogues, so a
 * spec in Hindi finds controls by what a Hindi reader sees. Fails on a text with no Hindi.
 */
export async function hindiTexts(): Promise<(english: string) => string> {
  if (hindi === null) {
    const po = formatter({ lineNumbers: false });
    const table = new Map<string, string>();
    for (const name of ['app', 'field', 'admin']) {
      const file = path.join(LOCALES, `${name}.po`);
      const entries = (await po.parse(readFileSync(file, 'utf8'), { locale: 'hi', sourceLocale: 'en', filename: file })) ?? {};
      for (const entry of Object.values(entries)) if (entry.message && entry.translation) table.set(entry.message, entry.translation);
    }
    hindi = table;
  }
  const known = hindi;
  return (english) => {
    const text = known.get(english);
    if (text === undefined) throw new Error(`No Hindi for "${english}" in web/src/locales/hi`);
    return text;
  };
}

/**
 * A user of this spec's own, created by the demo Admin through the API with a password of their
 * own already chosen: the language a user picks is kept on their account, and the shared demo
 * accounts must stay in English for the other specs.
 */
export async function createOwnUser(
  request: APIRequestContext,
  user: { employeeId: string; name: string; role: 'Technician' | 'Admin'; phone: string },
): Promise<string> {
  const password = `${user.employeeId.toLowerCase()}-pass-1`;
  const login = await request.post('/api/auth/login', { data: { employeeId: ADMIN.employeeId, password: DEMO_PASSWORD } });
  expect(login.status()).toBe(200);
  // The phone is a new user's first password, which they must change before anything else.
  const created = await request.post('/api/users', { data: user });
  expect([201, 409]).toContain(created.status());
  await request.post('/api/auth/logout');
  if (created.status() === 201) {
    expect((await request.post('/api/auth/login', { data: { employeeId: user.employeeId, password: user.phone } })).status()).toBe(200);
    const changed = await request.post('/api/auth/change-password', {
      data: { currentPassword: user.phone, newPassword: password },
    });
    expect(changed.status()).toBe(200);
    await request.post('/api/auth/logout');
  }
  return password;
}

/** Chooses Hindi with the switch on the screen, and waits until the page reads in it. */
export async function chooseHindi(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'हिंदी' }).first().click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'hi');
}
