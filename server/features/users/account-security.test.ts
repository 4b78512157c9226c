/**
 * Accounts as a railway's IT would manage them: owner accounts out of a plain Admin's reach,
 * plain employee IDs, switching an account off (and on again), and sessions that end.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, sessions } from '../../db/schema.js';
import { buildTestApp, type TestApp } from '../../test/build-test-app.js';
import { ADMIN, TEST_PASSWORD, createAndSignIn, createUser, errorOf, signIn } from '../../test/factories.js';
import { inspectionRow, insertInspectionRows } from '../../test/inspections.js';
import { makeJpeg, serviceVisitMetadata, uploadForm } from '../../test/photos.js';
import { sessionIdOf } from '../auth/index.js';

let t: TestApp;
/** A plain Admin, and an owner (OWNER_EMPLOYEE_IDS = OWN0001, OWN0002). */
let admin: string;
let owner: string;

beforeAll(async () => {
  t = await buildTestApp({ ownerEmployeeIds: ['OWN0001', 'OWN0002'] });
  ({ admin, owner } = await createAndSignIn(t, { admin: ADMIN, owner: { ...ADMIN, employeeId: 'OWN0001', name: 'The Owner' } }));
  await createUser(t.database.db, { role: 'Admin', employeeId: 'OWN0002', name: 'Another Owner' });
});
afterAll(() => t.close());

let addressCounter = 1;
const login = (employeeId: string, password = TEST_PASSWORD) =>
  t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { employeeId, password }, remoteAddress: `10.60.0.${addressCounter++}` });
const post = (url: string, cookie: string, payload?: object) =>
  t.app.inject({ method: 'POST', url, headers: { cookie }, ...(payload ? { payload } : {}) });
const get = (url: string, cookie: string) => t.app.inject({ method: 'GET', url, headers: { cookie } });
const auditOf = (employeeId: string) => t.database.db.select().from(auditLog).where(eq(auditLog.entityId, employeeId));
const listed = async (employeeId: string) =>
  ((await get('/api/users', admin)).json().users as Array<Record<string, unknown>>).find((u) => u.employeeId === employeeId);

describe('owner accounts', () => {
  it("a plain Admin cannot reset an owner's password (403, kept in the audit trail); an owner can", async () => {
    const refused = await post('/api/auth/reset-password', admin, { employeeId: 'own0001', newPassword: 'taken over 1' });
    expect(refused.statusCode).toBe(403);
    expect(errorOf(refused)).toMatchObject({ code: 'FORBIDDEN', message: 'Only an owner may create, reset or switch off an owner account' });
    // The owner still signs in with their own password, and their session still works.
    expect((await login('OWN0001')).statusCode).toBe(200);
    expect((await get('/api/auth/me', owner)).statusCode).toBe(200);
    expect(await auditOf('OWN0001')).toEqual([
      expect.objectContaining({ action: 'user.refused', actorEmployeeId: 'ADM1', after: { attempted: 'user.reset-password', reason: 'owner account' } }),
    ]);

    const byOwner = await post('/api/auth/reset-password', owner, { employeeId: 'OWN0002', newPassword: 'owner chose 1' });
    expect(byOwner.statusCode).toBe(200);
    expect((await login('OWN0002', 'owner chose 1')).statusCode).toBe(200);
    // A plain Admin still resets everyone else's.
    await createUser(t.database.db, { employeeId: 'TECRESET' });
    expect((await post('/api/auth/reset-password', admin, { employeeId: 'TECRESET', newPassword: 'admin chose 1' })).statusCode).toBe(200);
  });

  it('a plain Admin cannot create an account under an owner ID, in any case; an owner can', async () => {
    const t2 = await buildTestApp({ ownerEmployeeIds: ['OWN0001', 'OWN0009'] });
    try {
      await createUser(t2.database.db, { role: 'Admin', employeeId: 'ADM1' });
      await createUser(t2.database.db, { role: 'Admin', employeeId: 'OWN0001' });
      const [plain, own] = [await signIn(t2.app, 'ADM1'), await signIn(t2.app, 'OWN0001')];
      const payload = { employeeId: 'own0009', name: 'Would-be owner', phone: '9876543210', role: 'Admin' };
      const refused = await t2.app.inject({ method: 'POST', url: '/api/users', headers: { cookie: plain }, payload });
      expect(refused.statusCode).toBe(403);
      const users = (await t2.app.inject({ method: 'GET', url: '/api/users', headers: { cookie: own } })).json().users as Array<{ employeeId: string }>;
      expect(users.map((u) => u.employeeId)).not.toContain('own0009');
      const audit = await t2.database.db.select().from(auditLog).where(eq(auditLog.action, 'user.refused'));
      expect(audit).toEqual([expect.objectContaining({ entityId: 'own0009', after: { attempted: 'user.create', reason: 'owner account' } })]);

      const made = await t2.app.inject({ method: 'POST', url: '/api/users', headers: { cookie: own }, payload });
      expect(made.statusCode).toBe(201);
      expect(made.json().user).toMatchObject({ employeeId: 'own0009', isOwner: true });
    } finally {
      await t2.close();
    }
  });

  it('refuses an employee ID that is not plain, naming the field, everywhere one is taken', async () => {
    // The Kelvin sign lower-cases to 'k' in JavaScript: a look-alike of an owner's ID.
    for (const id of ['\u212Aown0001', 'ＯＷＮ0001', 'OWN 0001', 'own0001;', 'ОWN0001']) {
      const created = await post('/api/users', admin, { employeeId: id, name: 'Look-alike', phone: '9876543210', role: 'Admin' });
      expect(created.statusCode, id).toBe(400);
      expect(errorOf(created).fields, id).toEqual({ employeeId: "Employee ID may contain only letters, digits, '.', '_' and '-'" });
      expect((await post('/api/auth/reset-password', admin, { employeeId: id, newPassword: 'whatever 12' })).statusCode, id).toBe(400);
      const signedIn = await login(id, 'whatever');
      expect(signedIn.statusCode, id).toBe(400);
      expect(errorOf(signedIn).fields).toEqual({ employeeId: "Employee ID may contain only letters, digits, '.', '_' and '-'" });
    }
    expect((await post('/api/users/%E2%84%AAown0001/deactivate', owner)).statusCode).toBe(400);
  });
});

describe('switching an account off', () => {
  it("ends the user's sessions at once, refuses their sign-in as a wrong password, and keeps their records' name", async () => {
    await createUser(t.database.db, { employeeId: 'TECLEFT', name: 'Mahesh Left' });
    const phone = (await login('TECLEFT')).cookies.find((c) => c.name === 'hkmi_session')?.value;
    const session = `hkmi_session=${phone}`;
    const photo = await makeJpeg();
    const uploaded = await t.app.inject({
      method: 'POST',
      url: '/api/inspections/upload',
      headers: { cookie: session },
      payload: uploadForm(serviceVisitMetadata(), photo),
    });
    expect(uploaded.statusCode).toBe(201);
    const { recordId } = uploaded.json() as { recordId: string };
    await insertInspectionRows(t.database.db, [inspectionRow({ technicianId: 'TECLEFT', technicianName: 'Mahesh Left', date: '2026-11-01' })]);

    const off = await post('/api/users/tecleft/deactivate', admin);
    expect(off.statusCode).toBe(200);
    expect(off.json().user).toMatchObject({ employeeId: 'TECLEFT', active: false });
    expect(off.json().user.deactivatedAt).toEqual(expect.any(String));

    // Mid-use: the next call of the phone's session is refused, and the session is gone.
    const next = await get('/api/inspections', session);
    expect(next.statusCode).toBe(401);
    expect(errorOf(next).code).toBe('SESSION_EXPIRED');
    const left = await t.database.db.select().from(sessions).where(eq(sessions.id, sessionIdOf(phone ?? '')));
    expect(left).toEqual([]);
    // Sign-in answers exactly as a wrong password does.
    const refused = await login('TECLEFT');
    const wrong = await login('TECLEFT', 'not the password');
    expect(refused.statusCode).toBe(401);
    expect(errorOf(refused)).toMatchObject({ code: wrong.json().code, message: wrong.json().message });

    // Still listed, marked; the records keep the name.
    expect(await listed('TECLEFT')).toMatchObject({ active: false, name: 'Mahesh Left' });
    const records = (await get('/api/inspections?limit=100', admin)).json().logs as Array<{ recordId: string; technicianId: string; technicianName: string }>;
    expect(records.filter((r) => r.technicianId === 'TECLEFT').map((r) => r.technicianName)).toEqual(['Mahesh Left', 'Mahesh Left']);
    expect(records.map((r) => r.recordId)).toContain(recordId);
    const technicians = (await get('/api/technicians', admin)).json().technicians as Array<{ employeeId: string }>;
    expect(technicians.map((x) => x.employeeId)).toContain('TECLEFT');

    // On again: they sign in, and both changes are in the audit trail.
    const on = await post('/api/users/TECLEFT/reactivate', admin);
    expect(on.json().user).toMatchObject({ active: true, deactivatedAt: null });
    expect((await login('TECLEFT')).statusCode).toBe(200);
    expect(await auditOf('TECLEFT')).toEqual([
      expect.objectContaining({ action: 'user.deactivate', actorEmployeeId: 'ADM1', before: { active: true }, after: { active: false } }),
      expect.objectContaining({ action: 'user.reactivate', actorEmployeeId: 'ADM1', before: { active: false }, after: { active: true } }),
    ]);
  });

  it('an owner account is switched off only by an owner; nobody switches off their own account', async () => {
    await createUser(t.database.db, { role: 'Admin', employeeId: 'ADMSELF' });
    const self = await signIn(t.app, 'ADMSELF');
    const refused = await post('/api/users/OWN0001/deactivate', self);
    expect(refused.statusCode).toBe(403);
    expect((await get('/api/auth/me', owner)).statusCode).toBe(200);
    const audit = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, 'OWN0001'), eq(auditLog.actorEmployeeId, 'ADMSELF')));
    expect(audit).toEqual([expect.objectContaining({ action: 'user.refused', after: { attempted: 'user.deactivate', reason: 'owner account' } })]);

    const own = await post('/api/users/ADMSELF/deactivate', self);
    expect(own.statusCode).toBe(400);
    expect(errorOf(own).fields).toEqual({ employeeId: 'You cannot switch off your own account' });
    expect((await get('/api/auth/me', self)).statusCode).toBe(200);

    // An owner may switch off another owner.
    const byOwner = await post('/api/users/OWN0002/deactivate', owner);
    expect(byOwner.statusCode).toBe(200);
    expect(byOwner.json().user).toMatchObject({ isOwner: true, active: false });
  });

  it('answers 404 for an unknown user, and is refused to Technicians, Clients and anonymous callers', async () => {
    expect((await post('/api/users/NOBODY99/deactivate', admin)).statusCode).toBe(404);
    await createUser(t.database.db, { employeeId: 'TECNOT' });
    await createUser(t.database.db, { role: 'Client', employeeId: 'CLINOT', divisionAccess: 'RTM/WR' });
    const [technician, client] = [await signIn(t.app, 'TECNOT'), await signIn(t.app, 'CLINOT')];
    expect((await post('/api/users/TECNOT/deactivate', technician)).statusCode).toBe(403);
    expect((await post('/api/users/TECNOT/deactivate', client)).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'POST', url: '/api/users/TECNOT/deactivate' })).statusCode).toBe(401);
    expect(await listed('TECNOT')).toMatchObject({ active: true });
  });
});

describe('session lifetime', () => {
  it('ends a session SESSION_MAX_AGE after its sign-in, however much it was used', async () => {
    await createUser(t.database.db, { employeeId: 'TECLONG' });
    const token = (await login('TECLONG')).cookies.find((c) => c.name === 'hkmi_session')?.value ?? '';
    const cookie = `hkmi_session=${token}`;
    const id = sessionIdOf(token);
    // Signed in 30 days less 10 minutes ago and used all along: alive, but renewed only up to
    // day 30 (10 minutes), not by the whole sliding hour of SESSION_TTL.
    await t.database.db
      .update(sessions)
      .set({ createdAt: new Date(Date.now() - 30 * 86400_000 + 600_000), expiresAt: new Date(Date.now() + 60_000) })
      .where(eq(sessions.id, id));
    const used = await get('/api/auth/me', cookie);
    expect(used.statusCode).toBe(200);
    const [row] = await t.database.db.select().from(sessions).where(eq(sessions.id, id));
    expect(row?.expiresAt.getTime()).toBeLessThanOrEqual(Date.now() + 600_000);
    expect(row?.expiresAt.getTime()).toBeGreaterThan(Date.now() + 540_000);
    // The cookie says the same (to the second, as cookies do).
    const cookieExpires = used.cookies.find((c) => c.name === 'hkmi_session')?.expires?.getTime() ?? 0;
    expect(Math.abs(cookieExpires - (row?.expiresAt.getTime() ?? 0))).toBeLessThan(1000);
    // Day 31: over, though its sliding expiry says otherwise.
    await t.database.db
      .update(sessions)
      .set({ createdAt: new Date(Date.now() - 31 * 86400_000), expiresAt: new Date(Date.now() + 3600_000) })
      .where(eq(sessions.id, id));
    const over = await get('/api/auth/me', cookie);
    expect(over.statusCode).toBe(401);
    expect(errorOf(over).code).toBe('SESSION_EXPIRED');
  });
});
