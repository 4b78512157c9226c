import type { Role } from '../../../common/constants.js';
import { DEMO_ACCOUNTS } from './demo-accounts.js';
import { EXTRA_TECHNICIANS } from './reference-data.js';

export interface DemoUser {
  employeeId: string;
  name: string;
  role: Role;
  phone: string;
  divisionAccess: string | null;
}

/** The three sign-ins shown on the login screen, then the technicians who only fill the lists. */
export const DEMO_USERS: readonly DemoUser[] = [
  ...DEMO_ACCOUNTS,
  ...EXTRA_TECHNICIANS.map((t): DemoUser => ({ ...t, role: 'Technician', divisionAccess: null })),
];

export function technicianName(employeeId: string): string {
  const user = DEMO_USERS.find((u) => u.employeeId === employeeId && u.role === 'Technician');
  if (!user) throw new Error(`No demo technician ${employeeId}`);
  return user.name;
}
