import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../../db/schema.js';
import { buildTestApp, type TestApp } from '../../test/build-test-app.js';
import { ADMIN, CLIENT_RTM, TECHNICIAN, TEST_PASSWORD, createAndSignIn, createUser, signIn } from '../../test/factories.js';

let t: TestApp;
let admin: string;
let technician: string;
let client: string;

beforeAll(async () => {
  t = await buildTestApp();
  ({ admin, technician, client } = await createAndSignIn(t, { admin: ADMIN, technician: TECHNICIAN, client: CLIENT_RTM }));
});
afterAll(() => t.close());

let address = 20;
const login = (employeeId: string, password: string) =>
  t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { employeeId, password }, remoteAddress: `10.1.0.${address++}` });
const addUser = (payload: object, cookie = admin) => t.app.inject({ method: 'POST', url: '/api/users', payload, headers: { cookie } });
const resetPassword = (payload: object, cookie = admin) =>
  t.app.inject({ method: 'POST', url: '/api/auth/reset-password', payload, headers: { cookie } });
const me = (cookie: string) => t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie } });

describe('POST /api/users', () => {
  it('an admin adds a technician (the default role); the phone is the first password', async () => {
    const response = await addUser({ employeeId: 'TEC500', name: 'Suresh Patel', phone: '+919876543210' });
    expect(response.statusCode).toBe(201);
    expect(response.json().user).toMatchObject({
      employeeId: 'TEC500',
      name: 'Suresh Patel',
      role: 'Technician',
      phone: '+919876543210',
      divisionAccess: null,
      isOwner: false,
      // Someone else chose the password: the user picks their own at the first sign-in.
      mustChangePassword: true,
    });
    expect(response.body).not.toMatch(/argon2|"password|passwordHash/i);

    const signedIn = await login('tec500', '+919876543210');
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.json().user).toMatchObject({ role: 'Technician', mustChangePassword: true });
  });

  it('adds a Client bound to a division, which is required for a Client', async () => {
    const missing = await addUser({ employeeId: 'CLI500', name: 'Client', phone: '9876543210', role: 'Client' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().fields).toEqual({ divisionAccess: 'Division access is required for a Client' });

    const wrong = await addUser({ employeeId: 'CLI500', name: 'Client', phone: '9876543210', role: 'Client', divisionAccess: 'XYZ/AB' });
    expect(wrong.statusCode).toBe(400);
    expect(Object.keys(wrong.json().fields)).toEqual(['divisionAccess']);

    const ok = await addUser({ employeeId: 'CLI500', name: 'Client', phone: '9876543210', role: 'Client', divisionAccess: 'FZR/NR' });
    expect(ok.statusCode).toBe(201);
    expect(ok.json().user).toMatchObject({ role: 'Client', divisionAccess: 'FZR/NR' });
  });

  it('answers 409 for an employee ID that exists, whatever its case', async () => {
    const response = await addUser({ employeeId: 'tec1', name: 'Someone', phone: '9876543211' });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ code: 'CONFLICT', message: 'Employee ID tec1 already exists' });
  });

  it('answers 400 naming employeeId, name and phone when they are missing', async () => {
    const response = await addUser({});
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      code: 'VALIDATION_FAILED',
      fields: { employeeId: 'Employee ID is required', name: 'Name is required', phone: 'Phone is required' },
    });
    const blank = await addUser({ employeeId: ' ', name: '', phone: '' });
    expect(Object.keys(blank.json().fields).sort()).toEqual(['employeeId', 'name', 'phone']);
  });

  it('refuses a phone that is not 10 to 15 digits and an unknown role', async () => {
    for (const phone of ['12345', '98765-43210', '+1234567890123456', 'abcdefghij']) {
      const response = await addUser({ employeeId: 'TEC501', name: 'X', phone });
      expect(response.statusCode, phone).toBe(400);
      expect(response.json().fields.phone).toBe('Phone must be 10 to 15 digits, optionally starting with +');
    }
    const role = await addUser({ employeeId: 'TEC501', name: 'X', phone: '9876543212', role: 'Owner' });
    expect(role.statusCode).toBe(400);
    expect(Object.keys(role.json().fields)).toEqual(['role']);
  });

  it('is refused to Technicians and Clients (403) and to anonymous callers (401)', async () => {
    const body = { employeeId: 'TEC502', name: 'X', phone: '9876543213' };
    expect((await addUser(body, technician)).statusCode).toBe(403);
    expect((await addUser(body, client)).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'POST', url: '/api/users', payload: body })).statusCode).toBe(401);
    expect((await login('TEC502', '9876543213')).statusCode).toBe(401);
  });
});

describe('POST /api/auth/reset-password', () => {
  it('sets the new password and ends every session of that user', async () => {
    await createUser(t.database.db, { employeeId: 'TEC600' });
    const oldSession = await signIn(t.app, 'TEC600');
    expect((await me(oldSession)).statusCode).toBe(200);

    const response = await resetPassword({ employeeId: 'tec600', newPassword: 'brand new secret' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true });

    expect((await login('TEC600', TEST_PASSWORD)).statusCode).toBe(401);
    const signedIn = await login('TEC600', 'brand new secret');
    expect(signedIn.statusCode).toBe(200);
    // The Admin chose it: the user must choose their own before anything else.
    expect(signedIn.json().user.mustChangePassword).toBe(true);
    expect((await me(oldSession)).statusCode).toBe(401);
    // The admin's own session is untouched.
    expect((await me(admin)).statusCode).toBe(200);
  });

  it('answers 400 for a password shorter than 8 characters and for missing fields', async () => {
    const short = await resetPassword({ employeeId: 'TEC1', newPassword: 'short' });
    expect(short.statusCode).toBe(400);
    expect(short.json().fields).toEqual({ newPassword: 'Password must be at least 8 characters' });
    expect(short.json().message).toBe('newPassword: Password must be at least 8 characters');

    const missing = await resetPassword({});
    expect(missing.statusCode).toBe(400);
    expect(Object.keys(missing.json().fields).sort()).toEqual(['employeeId', 'newPassword']);
    expect((await login('TEC1', TEST_PASSWORD)).statusCode).toBe(200);
  });

  it('answers 404 for an unknown employee ID', async () => {
    const response = await resetPassword({ employeeId: 'NOBODY', newPassword: 'long enough' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ code: 'NOT_FOUND', message: 'No user with employee ID NOBODY' });
  });

  it('is refused to Technicians and Clients', async () => {
    const body = { employeeId: 'ADM1', newPassword: 'taken over!' };
    expect((await resetPassword(body, technician)).statusCode).toBe(403);
    expect((await resetPassword(body, client)).statusCode).toBe(403);
    expect((await login('ADM1', TEST_PASSWORD)).statusCode).toBe(200);
  });
});

describe('audit trail', () => {
  it('records user creation and password reset with before/after, and never a password or hash', async () => {
    await addUser({ employeeId: 'TEC700', name: 'Audit Me', phone: '9876500000' });
    await resetPassword({ employeeId: 'TEC700', newPassword: 'another secret' });

    const response = await t.app.inject({ method: 'GET', url: '/api/audit', headers: { cookie: admin } });
    expect(response.statusCode).toBe(200);
    const { entries } = response.json() as { entries: Array<Record<string, unknown>> };
    const ofUser = entries.filter((e) => e.entityId === 'TEC700');
    expect(ofUser).toHaveLength(2);
    const [reset, created] = ofUser;
    expect(reset).toMatchObject({
      action: 'user.reset-password',
      entity: 'user',
      actorEmployeeId: 'ADM1',
      before: { employeeId: 'TEC700', name: 'Audit Me', role: 'Technician' },
      after: { passwordChanged: true },
    });
    expect(created).toMatchObject({
      action: 'user.create',
      actorEmployeeId: 'ADM1',
      before: null,
      after: { employeeId: 'TEC700', name: 'Audit Me', role: 'Technician', phone: '9876500000' },
    });
    expect(new Date(String(created?.at)).toISOString()).toBe(created?.at);

    // Nothing secret in the answer, nor in the table itself.
    expect(response.body).not.toMatch(/argon2|passwordHash|another secret/);
    const rows = await t.database.db.select().from(auditLog);
    expect(JSON.stringify(rows)).not.toMatch(/argon2|passwordHash|another secret|brand new secret/);
    expect(rows.find((r) => r.entityId === 'TEC700')?.requestId).toBeTruthy();
  });

  it('a failed write leaves no audit entry', async () => {
    const before = (await t.database.db.select().from(auditLog)).length;
    await addUser({ employeeId: 'TEC1', name: 'dup', phone: '9876543219' });
    await resetPassword({ employeeId: 'NOBODY', newPassword: 'long enough' });
    expect((await t.database.db.select().from(auditLog)).length).toBe(before);
  });
});

describe('GET /api/audit', () => {
  it('pages newest first with limit and offset and reports the total', async () => {
    for (let i = 0; i < 3; i++) await addUser({ employeeId: `PAGE${i}`, name: `Page ${i}`, phone: `98765000${10 + i}` });
    const all = (await t.app.inject({ method: 'GET', url: '/api/audit?limit=500', headers: { cookie: admin } })).json();
    expect(all.total).toBe(all.entries.length);
    expect(all.entries.slice(0, 3).map((e: { entityId: string }) => e.entityId)).toEqual(['PAGE2', 'PAGE1', 'PAGE0']);

    const page = await t.app.inject({ method: 'GET', url: '/api/audit?limit=2&offset=1', headers: { cookie: admin } });
    expect(page.statusCode).toBe(200);
    expect(page.json().total).toBe(all.total);
    expect(page.json().entries.map((e: { id: number }) => e.id)).toEqual(all.entries.slice(1, 3).map((e: { id: number }) => e.id));
  });

  it('answers 400 for a limit above 500 or below 1 and a negative offset', async () => {
    for (const query of ['limit=501', 'limit=0', 'offset=-1', 'limit=abc']) {
      const response = await t.app.inject({ method: 'GET', url: `/api/audit?${query}`, headers: { cookie: admin } });
      expect(response.statusCode, query).toBe(400);
    }
  });

  it('is refused to Technicians and Clients (403) and anonymous callers (401)', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/audit', headers: { cookie: technician } })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/audit', headers: { cookie: client } })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/audit' })).statusCode).toBe(401);
  });
});
