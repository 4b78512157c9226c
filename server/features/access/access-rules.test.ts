/**
 * The authorization walker: every /api route the app registers is called as each kind of
 * caller, with a forged X-User-Data header claiming Admin and owner, and the answer must
 * match the route's declared rule: 401 for an anonymous caller a rule refuses, 403 for a
 * signed-in one, and neither for a caller it allows. A route with no rule fails the test.
 */
import type { HTTPMethods, RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../../../common/constants.js';
import type { Access } from '../../plugins/access.js';
import { buildTestApp, type TestApp } from '../../test/build-test-app.js';
import { createUser, signIn } from '../../test/factories.js';

interface Caller {
  name: string;
  employeeId: string | null;
  role: Role | null;
  isOwner: boolean;
}

const CALLERS: Caller[] = [
  { name: 'anonymous', employeeId: null, role: null, isOwner: false },
  { name: 'technician', employeeId: 'WALK_TEC', role: 'Technician', isOwner: false },
  { name: 'client of RTM/WR', employeeId: 'WALK_CLI_RTM', role: 'Client', isOwner: false },
  { name: 'client of FZR/NR', employeeId: 'WALK_CLI_FZR', role: 'Client', isOwner: false },
  { name: 'admin', employeeId: 'WALK_ADM', role: 'Admin', isOwner: false },
  // OWNER_EMPLOYEE_IDS of TEST_CONFIG.
  { name: 'owner', employeeId: 'OWN0001', role: 'Admin', isOwner: true },
];

const FORGED_USER_DATA = JSON.stringify({ id: 1, employeeId: 'OWN0001', name: 'Forged', role: 'Admin', isOwner: true, divisionAccess: null });

/** Harmless values for path parameters: nothing with these names exists. */
const PARAM_VALUES: Record<string, string> = { recordId: 'INS-NOPE', section: 'X', curveNumber: 'X', line: 'Up', id: '999999', reportId: 'NOPE' };

interface WalkedRoute {
  method: HTTPMethods;
  url: string;
  access: Access | undefined;
}

const routes: WalkedRoute[] = [];
function collect(route: RouteOptions) {
  if (!(route.url === '/api' || route.url.startsWith('/api/'))) return;
  const methods = Array.isArray(route.method) ? route.method : [route.method];
  for (const method of methods) {
    // Fastify adds a HEAD route for each GET; it shares the GET's rule.
    if (method === 'HEAD') continue;
    routes.push({ method, url: route.url, access: route.config?.access });
  }
}

/** 'allow', or the status a refused caller must get. */
function expected(rule: Access, caller: Caller): 'allow' | 401 | 403 {
  if (rule.kind === 'public') return 'allow';
  if (caller.role === null) return 401;
  if (rule.kind === 'signed-in') return 'allow';
  if (rule.kind === 'roles') return rule.roles.includes(caller.role) ? 'allow' : 403;
  return caller.role === 'Admin' && caller.isOwner ? 'allow' : 403;
}

const fillParams = (url: string) => url.replace(/:(\w+)/g, (_, name: string) => PARAM_VALUES[name] ?? 'X');

let t: TestApp;
const cookies = new Map<string, string>();

beforeAll(async () => {
  t = await buildTestApp({}, { onRoute: collect });
  await createUser(t.database.db, { role: 'Technician', employeeId: 'WALK_TEC' });
  await createUser(t.database.db, { role: 'Client', employeeId: 'WALK_CLI_RTM', divisionAccess: 'RTM/WR' });
  await createUser(t.database.db, { role: 'Client', employeeId: 'WALK_CLI_FZR', divisionAccess: 'FZR/NR' });
  await createUser(t.database.db, { role: 'Admin', employeeId: 'WALK_ADM' });
  await createUser(t.database.db, { role: 'Admin', employeeId: 'OWN0001' });
  for (const caller of CALLERS) if (caller.employeeId) cookies.set(caller.name, await signIn(t.app, caller.employeeId));
});
afterAll(() => t.close());

describe('the authorization walker', () => {
  it('finds the API routes', () => {
    expect(routes.length).toBeGreaterThan(10);
    expect(routes).toContainEqual(expect.objectContaining({ method: 'POST', url: '/api/users' }));
    expect(routes).toContainEqual(expect.objectContaining({ method: 'GET', url: '/api/audit' }));
  });

  it('every /api route declares an access rule', () => {
    const undeclared = routes.filter((r) => !r.access).map((r) => `${r.method} ${r.url}`);
    expect(undeclared).toEqual([]);
  });

  it('every route answers each caller as its rule says, whatever X-User-Data claims', async () => {
    // Signing out would end the callers' sessions: walk those routes last.
    const ordered = [...routes].sort((a, b) => Number(a.url.endsWith('/logout')) - Number(b.url.endsWith('/logout')));
    const mismatches: string[] = [];
    for (const route of ordered) {
      if (!route.access) continue;
      for (const caller of CALLERS) {
        const cookie = cookies.get(caller.name);
        const response = await t.app.inject({
          method: route.method,
          url: fillParams(route.url),
          headers: { 'x-user-data': FORGED_USER_DATA, ...(cookie ? { cookie } : {}) },
          ...(route.method === 'GET' || route.method === 'DELETE' ? {} : { payload: {} }),
        });
        const want = expected(route.access, caller);
        const status = response.statusCode;
        const ok = want === 'allow' ? status !== 401 && status !== 403 && status < 500 : status === want;
        if (!ok) mismatches.push(`${route.method} ${route.url} as ${caller.name}: expected ${want}, got ${status}`);
      }
    }
    expect(mismatches).toEqual([]);
  });
});
