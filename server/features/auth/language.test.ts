import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../db/schema.js';
import { buildTestApp, type TestApp } from '../../test/build-test-app.js';
import { TEST_PASSWORD, createUser, errorOf, signIn } from '../../test/factories.js';

let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp();
  await createUser(t.database.db, { role: 'Technician', employeeId: 'LANG_TEC1', name: 'Ravi Meena' });
  await createUser(t.database.db, { role: 'Technician', employeeId: 'LANG_TEC2' });
  await createUser(t.database.db, { role: 'Admin', employeeId: 'LANG_ADM1' });
  await createUser(t.database.db, { role: 'Technician', employeeId: 'LANG_NEW1' });
  // As an Admin's add or reset leaves them: their own password is still to be chosen.
  await t.database.db.update(users).set({ mustChangePassword: true }).where(eq(users.employeeId, 'LANG_NEW1'));
});
afterAll(() => t.close());

const setLanguage = (cookie: string | undefined, payload: unknown) =>
  t.app.inject({ method: 'PUT', url: '/api/auth/language', payload: payload as object, headers: cookie ? { cookie } : {} });
const me = (cookie: string) => t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie } });
const login = (employeeId: string) =>
  t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { employeeId, password: TEST_PASSWORD } });

describe('PUT /api/auth/language', () => {
  it('keeps the choice on the account: me and the next sign-in answer it', async () => {
    const cookie = await signIn(t.app, 'LANG_TEC1');
    // Not chosen yet: null, so the device's own choice applies.
    expect((await me(cookie)).json().user).toMatchObject({ employeeId: 'LANG_TEC1', language: null });

    const response = await setLanguage(cookie, { language: 'hi' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().user).toMatchObject({ employeeId: 'LANG_TEC1', name: 'Ravi Meena', role: 'Technician', language: 'hi' });
    expect(response.body).not.toMatch(/argon2|passwordHash/i);

    expect((await me(cookie)).json().user.language).toBe('hi');
    // Another phone: a fresh sign-in answers the same choice.
    const again = await login('lang_tec1');
    expect(again.statusCode).toBe(200);
    expect(again.json().user.language).toBe('hi');

    // And back.
    expect((await setLanguage(cookie, { language: 'en' })).json().user.language).toBe('en');
    expect((await me(cookie)).json().user.language).toBe('en');
  });

  it('refuses a language the app does not have, naming the field, and changes nothing', async () => {
    const cookie = await signIn(t.app, 'LANG_ADM1');
    for (const payload of [{ language: 'fr' }, { language: 'HI' }, { language: null }, {}]) {
      const response = await setLanguage(cookie, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      const error = errorOf(response);
      expect(error.code).toBe('VALIDATION_FAILED');
      expect(error.fields, JSON.stringify(payload)).toEqual({ language: 'Language must be one of en, hi' });
    }
    expect((await me(cookie)).json().user.language).toBeNull();
  });

  it('needs a session', async () => {
    const response = await setLanguage(undefined, { language: 'hi' });
    expect(response.statusCode).toBe(401);
    expect(errorOf(response).code).toBe('NOT_AUTHENTICATED');
  });

  it('is open to a user who must still choose a new password', async () => {
    const cookie = await signIn(t.app, 'LANG_NEW1');
    // Held to the password change elsewhere...
    const elsewhere = await t.app.inject({ method: 'GET', url: '/api/inspections', headers: { cookie } });
    expect(errorOf(elsewhere).code).toBe('PASSWORD_CHANGE_REQUIRED');
    // ...but may pick the language the change-password screen is read in.
    const response = await setLanguage(cookie, { language: 'hi' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().user).toMatchObject({ employeeId: 'LANG_NEW1', mustChangePassword: true, language: 'hi' });
    // The change-password answer carries it too.
    const changed = await t.app.inject({
      method: 'POST',
      url: '/api/auth/change-password',
      headers: { cookie },
      payload: { currentPassword: TEST_PASSWORD, newPassword: 'my own secret 7' },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().user).toMatchObject({ mustChangePassword: false, language: 'hi' });
  });

  it("changes only the caller's own account", async () => {
    const first = await signIn(t.app, 'LANG_TEC2');
    const second = await signIn(t.app, 'LANG_ADM1');
    expect((await setLanguage(second, { language: 'en' })).statusCode).toBe(200);
    expect((await setLanguage(first, { language: 'hi' })).statusCode).toBe(200);
    expect((await me(first)).json().user.language).toBe('hi');
    expect((await me(second)).json().user.language).toBe('en');
    const rows = await t.database.db.select({ employeeId: users.employeeId, language: users.language }).from(users);
    const byId = Object.fromEntries(rows.map((row) => [row.employeeId, row.language]));
    expect(byId).toMatchObject({ LANG_TEC2: 'hi', LANG_ADM1: 'en' });
  });
});

describe('users.language in the database', () => {
  it("holds only the app's languages, or null for no choice", async () => {
    const where = eq(users.employeeId, 'LANG_TEC2');
    await t.database.db.update(users).set({ language: 'hi' }).where(where);
    await expect(t.database.db.update(users).set({ language: 'fr' }).where(where)).rejects.toThrow();
    await t.database.db.update(users).set({ language: null }).where(where);
    const [row] = await t.database.db.select({ language: users.language }).from(users).where(where);
    expect(row).toEqual({ language: null });
  });
});
