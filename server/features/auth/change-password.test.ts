import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../../db/schema.js';
import { buildTestApp, type TestApp } from '../../test/build-test-app.js';
import { ADMIN, TEST_PASSWORD, createAndSignIn, createUser, errorOf } from '../../test/factories.js';
import { makeJpeg, serviceVisitMetadata, uploadForm } from '../../test/photos.js';
import { createUserService } from '../users/index.js';

let t: TestApp;
let admin: string;
let photo: Buffer;
let addressCounter = 1;
/** Each test calls from its own address, so the per-address throttle of one does not leak into another. */
const nextAddress = () => `10.7.0.${addressCounter++}`;

beforeAll(async () => {
  t = await buildTestApp();
  ({ admin } = await createAndSignIn(t, { admin: { ...ADMIN, name: 'Anita Admin' } }));
  photo = await makeJpeg();
});
afterAll(() => t.close());

const login = (employeeId: string, password: string, remoteAddress = nextAddress()) =>
  t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { employeeId, password }, remoteAddress });

/** Signs in and answers the cookie and the user the login returned. */
async function signInAs(employeeId: string, password: string) {
  const response = await login(employeeId, password);
  expect(response.statusCode, response.body).toBe(200);
  const cookie = response.cookies.find((c) => c.name === 'hkmi_session');
  if (!cookie) throw new Error('no session cookie');
  return { cookie: `${cookie.name}=${cookie.value}`, user: response.json().user as Record<string, unknown> };
}

const changePassword = (cookie: string | undefined, payload: object, remoteAddress = '10.7.1.1') =>
  t.app.inject({
    method: 'POST',
    url: '/api/auth/change-password',
    payload,
    remoteAddress,
    headers: cookie ? { cookie } : {},
  });

const get = (url: string, cookie: string) => t.app.inject({ method: 'GET', url, headers: { cookie } });
const me = (cookie: string) => get('/api/auth/me', cookie);
const upload = (cookie: string) =>
  t.app.inject({ method: 'POST', url: '/api/inspections/upload', headers: { cookie }, payload: uploadForm(serviceVisitMetadata(), photo) });

/** An Admin adds the user through the API (the phone becomes the first password). */
async function addUser(employeeId: string, phone: string, role: 'Technician' | 'Admin' | 'Client' = 'Technician') {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/users',
    headers: { cookie: admin },
    payload: { employeeId, name: `User ${employeeId}`, phone, role, ...(role === 'Client' ? { divisionAccess: 'RTM/WR' } : {}) },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().user as Record<string, unknown>;
}

function expectPasswordChangeRequired(response: Awaited<ReturnType<typeof get>>, what: string) {
  expect(response.statusCode, what).toBe(403);
  expect(errorOf(response), what).toMatchObject({
    code: 'PASSWORD_CHANGE_REQUIRED',
    message: 'Please choose a new password before you continue',
  });
}

describe('a user whose password an Admin chose', () => {
  it('is held to me, logout and change-password until they choose their own; then everything works', async () => {
    const added = await addUser('TECNEW1', '9876543210');
    expect(added.mustChangePassword).toBe(true);

    const { cookie, user } = await signInAs('TECNEW1', '9876543210');
    expect(user).toMatchObject({ employeeId: 'TECNEW1', mustChangePassword: true });

    // Everything a technician does answers 403 with the code the app reacts to.
    expectPasswordChangeRequired(await get('/api/inspections', cookie), 'GET /api/inspections');
    expectPasswordChangeRequired(await get('/api/consolidated-curves?limit=1000', cookie), 'GET /api/consolidated-curves');
    expectPasswordChangeRequired(await upload(cookie), 'POST /api/inspections/upload');
    // Even a call their role would be refused: nothing else is answered first.
    expectPasswordChangeRequired(await get('/api/users', cookie), 'GET /api/users');
    expect((await get('/api/inspections', admin)).json().logs).toHaveLength(0);

    // Public routes stay public, and me answers with the flag.
    expect((await get('/api/health', cookie)).statusCode).toBe(200);
    const meAnswer = await me(cookie);
    expect(meAnswer.statusCode).toBe(200);
    expect(meAnswer.json().user).toMatchObject({ employeeId: 'TECNEW1', mustChangePassword: true });

    const changed = await changePassword(cookie, { currentPassword: '9876543210', newPassword: 'my own secret 7' });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().user).toMatchObject({ employeeId: 'TECNEW1', role: 'Technician', mustChangePassword: false });
    expect(changed.body).not.toMatch(/argon2|passwordHash|my own secret/);

    // The same session now works for everything its role allows.
    expect((await get('/api/inspections', cookie)).statusCode).toBe(200);
    const stored = await upload(cookie);
    expect(stored.statusCode, stored.body).toBe(201);
    expect((await me(cookie)).json().user.mustChangePassword).toBe(false);

    // The phone no longer signs in; the new password does, with nothing left to change.
    expect((await login('TECNEW1', '9876543210')).statusCode).toBe(401);
    expect((await signInAs('TECNEW1', 'my own secret 7')).user.mustChangePassword).toBe(false);
  });

  it('an added Admin cannot use the admin routes before choosing a password', async () => {
    await addUser('ADMNEW1', '9876543211', 'Admin');
    const { cookie } = await signInAs('ADMNEW1', '9876543211');
    expectPasswordChangeRequired(await get('/api/users', cookie), 'GET /api/users');
    expectPasswordChangeRequired(await get('/api/audit', cookie), 'GET /api/audit');
    const reset = await t.app.inject({
      method: 'POST',
      url: '/api/auth/reset-password',
      headers: { cookie },
      payload: { employeeId: 'ADM1', newPassword: 'taken over 123' },
    });
    expectPasswordChangeRequired(reset, 'POST /api/auth/reset-password');
    expect((await login('ADM1', TEST_PASSWORD)).statusCode).toBe(200);

    expect((await changePassword(cookie, { currentPassword: '9876543211', newPassword: 'admin chose this' })).statusCode).toBe(200);
    expect((await get('/api/users', cookie)).statusCode).toBe(200);
  });

  it('logout works while the change is pending', async () => {
    await addUser('CLINEW1', '9876543212', 'Client');
    const { cookie } = await signInAs('CLINEW1', '9876543212');
    const out = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { cookie } });
    expect(out.statusCode).toBe(200);
    expect((await me(cookie)).statusCode).toBe(401);
  });

  it('a password reset by an Admin asks for a new one again', async () => {
    await createUser(t.database.db, { employeeId: 'TECRESET1' });
    const before = await signInAs('TECRESET1', TEST_PASSWORD);
    expect(before.user.mustChangePassword).toBe(false);
    expect((await get('/api/inspections', before.cookie)).statusCode).toBe(200);

    const reset = await t.app.inject({
      method: 'POST',
      url: '/api/auth/reset-password',
      headers: { cookie: admin },
      payload: { employeeId: 'TECRESET1', newPassword: 'admin picked 1' },
    });
    expect(reset.statusCode).toBe(200);

    const after = await signInAs('TECRESET1', 'admin picked 1');
    expect(after.user.mustChangePassword).toBe(true);
    expectPasswordChangeRequired(await get('/api/inspections', after.cookie), 'GET /api/inspections after reset');
    expect((await changePassword(after.cookie, { currentPassword: 'admin picked 1', newPassword: 'mine again 22' })).statusCode).toBe(200);
    expect((await get('/api/inspections', after.cookie)).statusCode).toBe(200);

    // The Admin's list shows who still has to choose.
    const list = (await get('/api/users', admin)).json().users as Array<{ employeeId: string; mustChangePassword: boolean }>;
    expect(list.find((u) => u.employeeId === 'TECRESET1')?.mustChangePassword).toBe(false);
    expect(list.find((u) => u.employeeId === 'ADM1')?.mustChangePassword).toBe(false);
  });
});

describe('POST /api/auth/change-password', () => {
  it('lets a signed-in user change their password of their own accord, audited without secrets', async () => {
    await createUser(t.database.db, { employeeId: 'TECVOL1' });
    const { cookie } = await signInAs('TECVOL1', TEST_PASSWORD);
    const response = await changePassword(cookie, { currentPassword: TEST_PASSWORD, newPassword: 'a better one 99' });
    expect(response.statusCode).toBe(200);
    expect(response.json().user).toMatchObject({ employeeId: 'TECVOL1', mustChangePassword: false });

    expect((await login('TECVOL1', TEST_PASSWORD)).statusCode).toBe(401);
    expect((await login('TECVOL1', 'a better one 99')).statusCode).toBe(200);

    const entries = (await get('/api/audit?limit=500', admin)).json().entries as Array<Record<string, unknown>>;
    expect(entries.filter((e) => e.entityId === 'TECVOL1')).toEqual([
      expect.objectContaining({ action: 'user.change-password', entity: 'user', actorEmployeeId: 'TECVOL1', after: { passwordChanged: true } }),
    ]);
    const rows = await t.database.db.select().from(auditLog);
    expect(JSON.stringify(rows)).not.toMatch(/a better one 99|argon2/);
  });

  it('ends every other session of the user and keeps the current one', async () => {
    await createUser(t.database.db, { employeeId: 'TECSESS1' });
    const phone = await signInAs('TECSESS1', TEST_PASSWORD);
    const laptop = await signInAs('TECSESS1', TEST_PASSWORD);
    await createUser(t.database.db, { employeeId: 'TECSESS2' });
    const someoneElse = await signInAs('TECSESS2', TEST_PASSWORD);

    expect((await changePassword(phone.cookie, { currentPassword: TEST_PASSWORD, newPassword: 'only this phone' })).statusCode).toBe(200);

    expect((await me(laptop.cookie)).statusCode).toBe(401);
    expect((await me(phone.cookie)).statusCode).toBe(200);
    expect((await get('/api/inspections', phone.cookie)).statusCode).toBe(200);
    expect((await me(someoneElse.cookie)).statusCode).toBe(200);
  });

  it('names the field and the rule for every new password it refuses, and changes nothing', async () => {
    await addUser('TECRULES01', '+919876543219');
    const { cookie } = await signInAs('TECRULES01', '+919876543219');
    const refused = async (payload: object, fields: Record<string, string>) => {
      const response = await changePassword(cookie, payload, nextAddress());
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(errorOf(response), JSON.stringify(payload)).toMatchObject({ code: 'VALIDATION_FAILED', fields });
    };
    const current = '+919876543219';

    await refused({}, { currentPassword: 'Current password is required', newPassword: 'New password is required' });
    await refused({ currentPassword: current, newPassword: 'short7' }, { newPassword: 'Password must be at least 8 characters' });
    await refused({ currentPassword: current, newPassword: 'x'.repeat(201) }, { newPassword: 'Password must be at most 200 characters' });
    await refused({ currentPassword: current, newPassword: 'tecrules01' }, { newPassword: 'The new password must not be your employee ID' });
    await refused({ currentPassword: current, newPassword: ' TECRULES01 ' }, { newPassword: 'The new password must not be your employee ID' });
    for (const asTyped of ['+919876543219', '9876543219', '+91 98765 43219', '098765-43219']) {
      await refused({ currentPassword: current, newPassword: asTyped }, { newPassword: 'The new password must not be your phone number' });
    }
    // Wrong current password: 400 on that field, never 401 (which would sign the app out).
    const wrong = await changePassword(cookie, { currentPassword: 'not my password', newPassword: 'perfectly fine 1' }, nextAddress());
    expect(wrong.statusCode).toBe(400);
    expect(errorOf(wrong)).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: 'currentPassword: Current password is incorrect',
      fields: { currentPassword: 'Current password is incorrect' },
    });
    // Both problems at once are both named.
    await refused(
      { currentPassword: 'not my password', newPassword: '9876543219' },
      { currentPassword: 'Current password is incorrect', newPassword: 'The new password must not be your phone number' },
    );

    // Nothing changed: the session still works for me, the change is still due, the phone still signs in.
    const stillMe = await me(cookie);
    expect(stillMe.statusCode).toBe(200);
    expect(stillMe.json().user.mustChangePassword).toBe(true);
    expect((await login('TECRULES01', current)).statusCode).toBe(200);
    // A phone number that is not theirs, or digits around other text, is allowed.
    expect((await changePassword(cookie, { currentPassword: current, newPassword: '9123456780' }, nextAddress())).statusCode).toBe(200);
  });

  it('refuses a new password equal to the current one', async () => {
    await createUser(t.database.db, { employeeId: 'TECSAME1' });
    const { cookie } = await signInAs('TECSAME1', TEST_PASSWORD);
    const response = await changePassword(cookie, { currentPassword: TEST_PASSWORD, newPassword: TEST_PASSWORD });
    expect(response.statusCode).toBe(400);
    expect(errorOf(response).fields).toEqual({ newPassword: 'The new password must be different from the current one' });
  });

  it('counts wrong current passwords against the sign-in throttle', async () => {
    await createUser(t.database.db, { employeeId: 'TECGUESS1' });
    const { cookie } = await signInAs('TECGUESS1', TEST_PASSWORD);
    const address = nextAddress();
    for (let i = 0; i < 5; i++) {
      const guess = await changePassword(cookie, { currentPassword: `guess number ${i}`, newPassword: 'whatever it is' }, address);
      expect(guess.statusCode).toBe(400);
    }
    // Even the right current password is refused now, from any address, and so is signing in.
    const blocked = await changePassword(cookie, { currentPassword: TEST_PASSWORD, newPassword: 'whatever it is' }, nextAddress());
    expect(blocked.statusCode).toBe(429);
    expect(errorOf(blocked).code).toBe('TOO_MANY_LOGIN_ATTEMPTS');
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(10);
    expect((await login('TECGUESS1', TEST_PASSWORD)).statusCode).toBe(429);
    // The session itself is not ended by the guesses.
    expect((await me(cookie)).statusCode).toBe(200);
  });

  it('answers 401 to an anonymous caller', async () => {
    const response = await changePassword(undefined, { currentPassword: 'a', newPassword: 'long enough 1' });
    expect(response.statusCode).toBe(401);
  });
});

describe('passwords the operator chose', () => {
  it('the configured first admin (ADMIN_EMPLOYEE_ID, npm run create-admin) is not asked to change', async () => {
    const users = createUserService({ db: t.database.db, isOwner: () => false });
    expect(await users.ensureAdmin({ employeeId: 'BOOTPW1', password: 'operator chose' })).toBe('created');
    const { cookie, user } = await signInAs('BOOTPW1', 'operator chose');
    expect(user.mustChangePassword).toBe(false);
    expect((await get('/api/users', cookie)).statusCode).toBe(200);
  });
});
