import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions } from '../../db/schema.js';
import { buildTestApp, type TestApp } from '../../test/build-test-app.js';
import { sessionIdOf } from './service.js';
import { TEST_PASSWORD, createUser, signIn } from '../../test/factories.js';

let t: TestApp;
let addressCounter = 10;
/** Each test signs in from its own address so the per-address throttle of one does not leak. */
const nextAddress = () => `10.0.0.${addressCounter++}`;

const login = (body: unknown, remoteAddress = nextAddress()) =>
  t.app.inject({ method: 'POST', url: '/api/auth/login', payload: body as object, remoteAddress });

beforeAll(async () => {
  t = await buildTestApp();
  await createUser(t.database.db, { role: 'Technician', employeeId: 'TEC1', name: 'Ravi Meena' });
  await createUser(t.database.db, { role: 'Admin', employeeId: 'ADM1', name: 'Anita Deshmukh' });
  await createUser(t.database.db, { role: 'Client', employeeId: 'CLI1', divisionAccess: 'RTM/WR' });
  await createUser(t.database.db, { role: 'Admin', employeeId: 'OWN0001' });
});
afterAll(() => t.close());

/** The clock moved past a key's wait: its blocked_until is now in the past. */
async function endWaitOf(key: string) {
  await t.database.db.execute(sql`update login_throttle set blocked_until = now() - interval '1 second' where key = ${key}`);
}

describe('POST /api/auth/login', () => {
  it('signs in with the right password and sets an httpOnly SameSite=Lax session cookie', async () => {
    const response = await login({ employeeId: 'TEC1', password: TEST_PASSWORD });
    expect(response.statusCode).toBe(200);
    const { user } = response.json();
    expect(user).toMatchObject({
      employeeId: 'TEC1',
      name: 'Ravi Meena',
      role: 'Technician',
      divisionAccess: null,
      isOwner: false,
      mustChangePassword: false,
      language: null,
    });
    // No hash and no password; only the flag whose name contains the word.
    expect(Object.keys(user)).not.toContain('password');
    expect(JSON.stringify(user)).not.toMatch(/argon2|passwordHash/i);
    const cookie = response.cookies.find((c) => c.name === 'hkmi_session');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(cookie?.value.length).toBeGreaterThan(30);
  });

  it('matches the employee ID without regard to case or surrounding spaces', async () => {
    const response = await login({ employeeId: '  tec1 ', password: TEST_PASSWORD });
    expect(response.statusCode).toBe(200);
    expect(response.json().user.employeeId).toBe('TEC1');
  });

  it('marks configured owners', async () => {
    const response = await login({ employeeId: 'OWN0001', password: TEST_PASSWORD });
    expect(response.json().user).toMatchObject({ role: 'Admin', isOwner: true });
  });

  it('answers 401 for a wrong password and for an unknown employee ID, with the same message', async () => {
    const wrong = await login({ employeeId: 'TEC1', password: 'not it' });
    const unknown = await login({ employeeId: 'NOBODY', password: 'whatever' });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toMatchObject({ code: 'INVALID_CREDENTIALS', message: 'Invalid employee ID or password' });
    expect(unknown.json().message).toBe(wrong.json().message);
    expect(wrong.cookies.find((c) => c.name === 'hkmi_session')).toBeUndefined();
  });

  it('answers 400 naming each missing field with the spec texts', async () => {
    const response = await login({});
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      code: 'VALIDATION_FAILED',
      fields: { employeeId: 'Employee ID is required', password: 'Password is required' },
    });
    expect(response.json().message).toBe('employeeId: Employee ID is required');

    const emptyPassword = await login({ employeeId: 'TEC1', password: '' });
    expect(emptyPassword.statusCode).toBe(400);
    expect(emptyPassword.json().message).toBe('password: Password is required');

    const blankId = await login({ employeeId: '   ', password: 'x' });
    expect(blankId.json().fields).toEqual({ employeeId: 'Employee ID is required' });
  });

  it('answers 400 for wrong-typed fields', async () => {
    const response = await login({ employeeId: 12345, password: ['a'] });
    expect(response.statusCode).toBe(400);
    expect(Object.keys(response.json().fields).sort()).toEqual(['employeeId', 'password']);
  });

  it('answers 400 for malformed JSON and for a missing body, never 500', async () => {
    const malformed = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"employeeId": "TEC1", ',
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toMatchObject({ code: 'MALFORMED_JSON', message: 'The request body is not valid JSON' });
    expect(malformed.body).not.toMatch(/at .*\.js|stack/i);

    const noBody = await t.app.inject({ method: 'POST', url: '/api/auth/login' });
    expect(noBody.statusCode).toBe(400);
    expect(noBody.json().code).toBe('VALIDATION_FAILED');
  });

  it('answers 413 for an oversized body and 415 for a body that is not JSON', async () => {
    const huge = await login({ employeeId: 'TEC1', password: 'x'.repeat(2 * 1024 * 1024) });
    expect(huge.statusCode).toBe(413);
    expect(huge.json().code).toBe('BODY_TOO_LARGE');

    const text = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'text/plain' },
      payload: 'TEC1:secret',
    });
    expect(text.statusCode).toBe(415);
  });

  it('after 5 failures an employee ID waits, even for the right password, and each further failure doubles the wait', async () => {
    const user = await createUser(t.database.db, { employeeId: 'TEC_LOCK' });
    for (let i = 0; i < 5; i++) {
      expect((await login({ employeeId: 'TEC_LOCK', password: `guess ${i}` })).statusCode).toBe(401);
    }
    const blocked = await login({ employeeId: 'tec_lock', password: TEST_PASSWORD });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toMatchObject({ code: 'TOO_MANY_LOGIN_ATTEMPTS' });
    expect(blocked.json().message).toMatch(/^Too many failed sign-in attempts\. Please wait 1[45] seconds and try again$/);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(10);
    expect(Number(blocked.headers['retry-after'])).toBeLessThanOrEqual(15);
    // Another employee is not affected.
    expect((await login({ employeeId: 'TEC1', password: TEST_PASSWORD })).statusCode).toBe(200);

    // The wait passes (the clock moved on): one more failure, and the next wait is twice as long.
    await endWaitOf(`employee:${user.employeeId.toLowerCase()}`);
    expect((await login({ employeeId: 'TEC_LOCK', password: 'guess 6' })).statusCode).toBe(401);
    const longer = await login({ employeeId: 'TEC_LOCK', password: TEST_PASSWORD });
    expect(longer.statusCode).toBe(429);
    expect(Number(longer.headers['retry-after'])).toBeGreaterThan(25);
    expect(Number(longer.headers['retry-after'])).toBeLessThanOrEqual(30);
    // Once it has passed, the right password signs in and the count starts afresh.
    await endWaitOf(`employee:${user.employeeId.toLowerCase()}`);
    expect((await login({ employeeId: 'TEC_LOCK', password: TEST_PASSWORD })).statusCode).toBe(200);
    for (let i = 0; i < 4; i++) expect((await login({ employeeId: 'TEC_LOCK', password: `again ${i}` })).statusCode).toBe(401);
    expect((await login({ employeeId: 'TEC_LOCK', password: TEST_PASSWORD })).statusCode).toBe(200);
  });

  it('limits failures per address across employee IDs', async () => {
    const address = '10.9.9.9';
    for (let i = 0; i < 30; i++) {
      expect((await login({ employeeId: `GUESS${i}`, password: 'x' }, address)).statusCode).toBe(401);
    }
    expect((await login({ employeeId: 'TEC1', password: TEST_PASSWORD }, address)).statusCode).toBe(429);
    expect((await login({ employeeId: 'TEC1', password: TEST_PASSWORD }, '10.9.9.10')).statusCode).toBe(200);
  });

  it('a success clears the failures of that employee ID', async () => {
    await createUser(t.database.db, { employeeId: 'TEC_RESET' });
    for (let i = 0; i < 4; i++) await login({ employeeId: 'TEC_RESET', password: 'bad' });
    expect((await login({ employeeId: 'TEC_RESET', password: TEST_PASSWORD })).statusCode).toBe(200);
    for (let i = 0; i < 4; i++) await login({ employeeId: 'TEC_RESET', password: 'bad' });
    expect((await login({ employeeId: 'TEC_RESET', password: TEST_PASSWORD })).statusCode).toBe(200);
  });
});

describe('session', () => {
  it('GET /api/auth/me answers the signed-in user, and 401 without a cookie', async () => {
    const cookie = await signIn(t.app, 'ADM1');
    const me = await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie } });
    expect(me.statusCode).toBe(200);
    expect(me.json().user).toMatchObject({ employeeId: 'ADM1', role: 'Admin' });

    const anonymous = await t.app.inject({ method: 'GET', url: '/api/auth/me' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toMatchObject({ code: 'NOT_AUTHENTICATED', message: 'Please sign in to continue' });
  });

  it('logout ends the session on the server and clears the cookie', async () => {
    const cookie = await signIn(t.app, 'TEC1');
    const out = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { cookie } });
    expect(out.statusCode).toBe(200);
    expect(out.json()).toEqual({ success: true });
    const cleared = out.cookies.find((c) => c.name === 'hkmi_session');
    expect(cleared?.value).toBe('');
    // The old cookie no longer works, even if the browser kept it.
    const me = await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie } });
    expect(me.statusCode).toBe(401);
    expect(me.json().code).toBe('SESSION_EXPIRED');
  });

  it('an expired session answers 401', async () => {
    const cookie = await signIn(t.app, 'CLI1');
    await t.database.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.id, sessionIdOf(cookie.split('=')[1] ?? '')));
    const me = await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie } });
    expect(me.statusCode).toBe(401);
    expect(me.json()).toMatchObject({ code: 'SESSION_EXPIRED', message: 'Your session has expired. Please sign in again' });
  });

  it('a session past half its lifetime is extended', async () => {
    const cookie = await signIn(t.app, 'TEC1');
    const soon = new Date(Date.now() + 60_000);
    const sessionId = sessionIdOf(cookie.split('=')[1] ?? '');
    await t.database.db.update(sessions).set({ expiresAt: soon }).where(eq(sessions.id, sessionId));
    const me = await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie } });
    expect(me.statusCode).toBe(200);
    const renewed = me.cookies.find((c) => c.name === 'hkmi_session');
    expect(renewed?.expires?.getTime()).toBeGreaterThan(Date.now() + 3000_000);
    const [row] = await t.database.db.select().from(sessions).where(eq(sessions.id, sessionId));
    expect(row?.expiresAt.getTime()).toBeGreaterThan(Date.now() + 3000_000);
  });
});

describe('roles and the X-User-Data header', () => {
  const forgedAdmin = JSON.stringify({ id: 1, employeeId: 'ADM1', name: 'Anita', role: 'Admin', isOwner: true });

  it('a technician calling an admin-only route gets 403', async () => {
    const cookie = await signIn(t.app, 'TEC1');
    const response = await t.app.inject({ method: 'GET', url: '/api/users', headers: { cookie } });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ code: 'FORBIDDEN', message: "You don't have permission to access this section." });
  });

  it('a client calling an admin-only route gets 403', async () => {
    const cookie = await signIn(t.app, 'CLI1');
    expect((await t.app.inject({ method: 'GET', url: '/api/users', headers: { cookie } })).statusCode).toBe(403);
  });

  it('an admin reads the users, with no password hashes', async () => {
    const cookie = await signIn(t.app, 'ADM1');
    const response = await t.app.inject({ method: 'GET', url: '/api/users', headers: { cookie } });
    expect(response.statusCode).toBe(200);
    const { users } = response.json();
    expect(users.map((u: { employeeId: string }) => u.employeeId)).toEqual(expect.arrayContaining(['TEC1', 'ADM1', 'CLI1']));
    expect(response.body).not.toMatch(/argon2|passwordHash/);
  });

  it('a forged X-User-Data header claiming Admin changes nothing', async () => {
    const cookie = await signIn(t.app, 'TEC1');
    const asTechnician = await t.app.inject({
      method: 'GET',
      url: '/api/users',
      headers: { cookie, 'x-user-data': forgedAdmin },
    });
    expect(asTechnician.statusCode).toBe(403);

    const anonymous = await t.app.inject({ method: 'GET', url: '/api/users', headers: { 'x-user-data': forgedAdmin } });
    expect(anonymous.statusCode).toBe(401);

    const me = await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie, 'x-user-data': forgedAdmin } });
    expect(me.json().user.role).toBe('Technician');
  });

  it('a garbage session cookie is refused', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/users', headers: { cookie: 'hkmi_session=forged' } });
    expect(response.statusCode).toBe(401);
  });
});
