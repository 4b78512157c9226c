import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/build-test-app.js';
import { createUserService } from './service.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const login = (employeeId: string, password: string) =>
  t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { employeeId, password } });

describe('the configured first admin (ADMIN_EMPLOYEE_ID / ADMIN_PASSWORD)', () => {
  it('is made once; a later start with another password changes nothing', async () => {
    const users = createUserService({ db: t.database.db, isOwner: () => false });
    expect(await users.ensureAdmin({ employeeId: 'BOOT01', password: 'first password' })).toBe('created');
    expect(await users.ensureAdmin({ employeeId: 'boot01', password: 'second password' })).toBe('exists');

    expect((await login('BOOT01', 'first password')).statusCode).toBe(200);
    expect((await login('BOOT01', 'second password')).statusCode).toBe(401);
    const me = (await login('BOOT01', 'first password')).json();
    // The operator chose this password: no change is asked for.
    expect(me.user).toMatchObject({ role: 'Admin', name: 'Administrator', mustChangePassword: false });
  });

  it('lets several instances starting at once on a new database all make sure of the admin', async () => {
    const users = createUserService({ db: t.database.db, isOwner: () => false });
    const outcomes = await Promise.all([1, 2, 3].map(() => users.ensureAdmin({ employeeId: 'BOOT02', password: 'first password' })));
    expect(outcomes.filter((o) => o === 'created')).toHaveLength(1);
    expect(outcomes.filter((o) => o === 'exists')).toHaveLength(2);
    expect((await login('BOOT02', 'first password')).statusCode).toBe(200);
  });
});
