import type { PublicUser } from '../../../common/schemas/auth.js';
import { USER_STORAGE_KEY } from '../lib/storage-keys.js';
import { type Handler, jsonResponse, type RecordedRequest, stubFetch } from './fetch-stub.js';

export const technician: PublicUser = {
  id: 1,
  employeeId: 'TECH001',
  name: 'Ravi Kumar',
  role: 'Technician',
  phone: null,
  divisionAccess: null,
  isOwner: false,
};

export const admin: PublicUser = { ...technician, id: 2, employeeId: 'ADM001', name: 'Anita Admin', role: 'Admin' };

export const client: PublicUser = {
  ...technician,
  id: 3,
  employeeId: 'CLI001',
  name: 'Carl Client',
  role: 'Client',
  divisionAccess: 'RTM/WR',
};

export function storeUser(user: PublicUser): void {
  localStorage.setItem(USER_STORAGE_KEY, JSON.stringify(user));
}

/**
 * `user` signed in on a server that answers the admin shell (health, who is signed in, the
 * register's filter lists) and `routes`; answers the requests made, as stubFetch does.
 */
export function signedInAdminShell(user: PublicUser, routes: Record<string, Handler>): RecordedRequest[] {
  storeUser(user);
  return stubFetch({
    'GET /api/health': () => jsonResponse(200, { status: 'ok', database: 'ok', version: '0.1.0' }),
    'GET /api/auth/me': () => jsonResponse(200, { user }),
    'GET /api/register-filters': () =>
      jsonResponse(200, { sections: [{ divisionRailway: 'RTM/WR', section: 'RTM-NAD' }, { divisionRailway: 'RTM/WR', section: 'NAD-UJN' }], sses: ['K. Menon', 'A. Rao'] }),
    ...routes,
  });
}
