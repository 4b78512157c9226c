/**
 * The sign-in throttle as an attacker meets it (a burst of parallel guesses, a stranger typing
 * an Admin's ID) and as a class signing in to one account at once meets it, and the rows it
 * leaves behind.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginThrottle } from '../../db/schema.js';
import { buildTestApp, type TestApp } from '../../test/build-test-app.js';
import { TEST_PASSWORD, createUser } from '../../test/factories.js';
import { purgeStaleThrottleRows } from './login-throttle.js';

let t: TestApp;
let addressCounter = 1;
const nextAddress = () => `10.44.${Math.floor(addressCounter / 250)}.${(addressCounter++ % 250) + 1}`;

const login = (employeeId: string, password: string, options: { address?: string; device?: string } = {}) =>
  t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { employeeId, password },
    remoteAddress: options.address ?? nextAddress(),
    headers: options.device ? { cookie: `hkmi_device=${options.device}` } : {},
  });

const statuses = (responses: ReadonlyArray<{ statusCode: number }>) => {
  const counts: Record<number, number> = {};
  for (const r of responses) counts[r.statusCode] = (counts[r.statusCode] ?? 0) + 1;
  return counts;
};

beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

describe('a burst of parallel guesses', () => {
  it('40 wrong passwords at once for one employee ID: exactly 5 are tried, the rest wait', async () => {
    await createUser(t.database.db, { employeeId: 'BURST1' });
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => login('BURST1', `guess ${i}`)));
    expect(statuses(answers)).toEqual({ 401: 5, 429: 35 });
    const refused = answers.find((a) => a.statusCode === 429);
    expect(refused?.json().code).toBe('TOO_MANY_LOGIN_ATTEMPTS');
    expect(Number(refused?.headers['retry-after'])).toBeGreaterThan(0);
    // Even the right password waits now.
    expect((await login('BURST1', TEST_PASSWORD)).statusCode).toBe(429);
  });

  it('12 right passwords at once for one employee ID (a class on one demo account) all sign in', async () => {
    await createUser(t.database.db, { employeeId: 'CLASS1' });
    const answers = await Promise.all(Array.from({ length: 12 }, () => login('CLASS1', TEST_PASSWORD)));
    expect(statuses(answers)).toEqual({ 200: 12 });
  });

  it('40 wrong current passwords at once on change-password: exactly 5 are tried', async () => {
    await createUser(t.database.db, { employeeId: 'BURST2' });
    const signedIn = await login('BURST2', TEST_PASSWORD);
    const cookie = signedIn.cookies.find((c) => c.name === 'hkmi_session');
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        t.app.inject({
          method: 'POST',
          url: '/api/auth/change-password',
          headers: { cookie: `hkmi_session=${cookie?.value}` },
          payload: { currentPassword: `guess ${i}`, newPassword: 'a new one 123' },
          remoteAddress: nextAddress(),
        }),
      ),
    );
    expect(statuses(answers)).toEqual({ 400: 5, 429: 35 });
  });

  it('40 wrong sign-ins at once from one address, each for another ID: exactly 30 are tried', async () => {
    const address = '10.45.0.1';
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => login(`NOBODY${i}`, 'x', { address })));
    expect(statuses(answers)).toEqual({ 401: 30, 429: 10 });
    // Another address is not affected.
    await createUser(t.database.db, { employeeId: 'BURST3' });
    expect((await login('BURST3', TEST_PASSWORD)).statusCode).toBe(200);
  });

  it('right passwords from a busy address do not count against it', async () => {
    const address = '10.45.0.2';
    await createUser(t.database.db, { employeeId: 'OFFICE1' });
    for (let i = 0; i < 29; i++) expect((await login(`NOBODY${i}`, 'x', { address })).statusCode).toBe(401);
    for (let i = 0; i < 5; i++) expect((await login('OFFICE1', TEST_PASSWORD, { address })).statusCode).toBe(200);
    expect((await login('NOBODY29', 'x', { address })).statusCode).toBe(401);
    expect((await login('OFFICE1', TEST_PASSWORD, { address })).statusCode).toBe(429);
  });
});

describe('a stranger typing an Admin ID', () => {
  it('cannot keep the Admin out: the browser the Admin signed in from before is counted on its own', async () => {
    await createUser(t.database.db, { role: 'Admin', employeeId: 'ADMTRUST' });
    const first = await login('ADMTRUST', TEST_PASSWORD);
    const device = first.cookies.find((c) => c.name === 'hkmi_device');
    expect(device).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/api/auth' });
    expect(device?.value.length).toBeGreaterThan(30);

    // The stranger, from many addresses, without that browser's cookie.
    const guesses = await Promise.all(Array.from({ length: 12 }, (_, i) => login('ADMTRUST', `guess ${i}`)));
    expect(statuses(guesses)).toEqual({ 401: 5, 429: 7 });
    expect((await login('ADMTRUST', TEST_PASSWORD)).statusCode).toBe(429);

    // The Admin, from the trusted browser: in at once, and the browser's cookie is renewed.
    const admin = await login('ADMTRUST', TEST_PASSWORD, { device: device?.value });
    expect(admin.statusCode).toBe(200);
    const renewed = admin.cookies.find((c) => c.name === 'hkmi_device');
    expect(renewed?.value).toBeTruthy();
    expect(renewed?.value).not.toBe(device?.value);
    // The old cookie was replaced: it exempts nothing any more.
    const stale = await login('ADMTRUST', TEST_PASSWORD, { device: device?.value });
    expect(stale.statusCode).toBe(429);
  });

  it("another user's trusted browser does not help a stranger, and a trusted browser has its own limit", async () => {
    await createUser(t.database.db, { role: 'Admin', employeeId: 'ADMOWN' });
    await createUser(t.database.db, { employeeId: 'TECSTRANGER' });
    const mine = (await login('TECSTRANGER', TEST_PASSWORD)).cookies.find((c) => c.name === 'hkmi_device')?.value;
    const guesses = await Promise.all(Array.from({ length: 8 }, (_, i) => login('ADMOWN', `guess ${i}`, { device: mine })));
    expect(statuses(guesses)).toEqual({ 401: 5, 429: 3 });


    await createUser(t.database.db, { role: 'Admin', employeeId: 'ADMOWN3' });
    const device = (await login('ADMOWN3', TEST_PASSWORD)).cookies.find((c) => c.name === 'hkmi_device')?.value;
    const fromDevice = await Promise.all(Array.from({ length: 12 }, (_, i) => login('ADMOWN3', `typo ${i}`, { device })));
    expect(statuses(fromDevice)).toEqual({ 401: 10, 429: 2 });
  });
});

describe('the rows it keeps', () => {
  it('are purged once no rule needs them', async () => {
    await t.database.db.insert(loginThrottle).values([
      { key: 'address:old', windowStart: sql`now() - interval '3 hours'`, lastFailureAt: sql`now() - interval '3 hours'`, failures: 3 },
      { key: 'employee:old', windowStart: sql`now() - interval '2 hours'`, lastFailureAt: sql`now() - interval '2 hours'`, failures: 9 },
      { key: 'employee:recent', windowStart: sql`now() - interval '10 minutes'`, lastFailureAt: sql`now() - interval '10 minutes'`, failures: 6 },
      {
        key: 'employee:still-waiting',
        windowStart: sql`now() - interval '2 hours'`,
        lastFailureAt: sql`now() - interval '2 hours'`,
        failures: 20,
        blockedUntil: sql`now() + interval '5 minutes'`,
      },
    ]);
    expect(await purgeStaleThrottleRows(t.database.db)).toBeGreaterThanOrEqual(2);
    const keys = (await t.database.db.select({ key: loginThrottle.key }).from(loginThrottle)).map((r) => r.key);
    expect(keys).not.toContain('address:old');
    expect(keys).not.toContain('employee:old');
    expect(keys).toContain('employee:recent');
    expect(keys).toContain('employee:still-waiting');
  });
});
