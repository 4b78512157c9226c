import type { PublicUser } from '../../../common/schemas/auth.js';
import { USER_STORAGE_KEY } from '../lib/storage-keys.js';

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
