import type { Role } from '../../../common/constants.js';

/**
 * The demo sign-ins, created only in demo mode and shown on the login screen there.
 * One shared password, as the spec's demo-users card has.
 */
export const DEMO_PASSWORD = 'demo1234';

export const DEMO_ACCOUNTS: ReadonlyArray<{
  role: Role;
  employeeId: string;
  name: string;
  phone: string;
  divisionAccess: string | null;
}> = [
  { role: 'Admin', employeeId: 'ADM1001', name: 'Anita Deshmukh', phone: '9826010011', divisionAccess: null },
  { role: 'Technician', employeeId: 'TEC2001', name: 'Ravi Kumar Meena', phone: '9826020021', divisionAccess: null },
  { role: 'Client', employeeId: 'CLI3001', name: 'Sr. DEN (Co-ord) Ratlam', phone: '9826030031', divisionAccess: 'RTM/WR' },
];
