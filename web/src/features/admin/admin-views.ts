import type { PublicUser } from '../../../../common/schemas/auth.js';

/** The admin dashboard's internal views (docs/functional-requirements.md, 'Admin dashboard (/admin)'), held in the `?view=` search param. */
export const ADMIN_VIEWS = [
  'menu',
  'data-management',
  'records-management',
  'machine-dashboard-management',
  'curve-details',
  'station-details',
  'reports',
  'inspection-reports',
  'curve-maintenance',
  'sse-reports',
  'service-reports',
  'user-management',
  'data',
] as const;
export type AdminView = (typeof ADMIN_VIEWS)[number];

export const VIEW_TITLES: Record<AdminView, string> = {
  menu: 'Administration',
  'data-management': 'Data Management',
  'records-management': 'Inspection Records & Images',
  'machine-dashboard-management': 'Machine Dashboard',
  'curve-details': 'Curve Details',
  'station-details': 'Station Details',
  reports: 'Reports & Analytics',
  'inspection-reports': 'PDF Reports',
  'curve-maintenance': 'Excel Reports',
  'sse-reports': 'SSE CoF Measurement',
  'service-reports': 'Service Reports',
  'user-management': 'User Management',
  data: 'Data',
};

/** Clients may open only these views. */
export const CLIENT_VIEWS: readonly AdminView[] = ['reports', 'inspection-reports', 'curve-maintenance', 'sse-reports'];

/** Owner rights: the machine dashboard editing view. */
const OWNER_VIEWS: readonly AdminView[] = ['machine-dashboard-management'];

/** The four report generators, in the order of the reports landing. */
export const REPORT_VIEWS = ['inspection-reports', 'curve-maintenance', 'sse-reports', 'service-reports'] as const;

export function isAdminView(value: string | null): value is AdminView {
  return value !== null && (ADMIN_VIEWS as readonly string[]).includes(value);
}

/** Where a user lands without a view: Clients at reports, everyone else at the menu. */
export function startViewFor(user: PublicUser): AdminView {
  return user.role === 'Client' ? 'reports' : 'menu';
}

export function mayOpenView(user: PublicUser, view: AdminView): boolean {
  if (user.role === 'Client') return CLIENT_VIEWS.includes(view);
  if (OWNER_VIEWS.includes(view)) return user.isOwner;
  return true;
}

/**
 * The view a Back press leads to (docs/functional-requirements.md, 'Admin dashboard (/admin)'), or null where Back leaves the dashboard
 * (the menu, and a Client's reports landing, whose back button logs out).
 */
export function backTargetOf(view: AdminView, user: PublicUser): AdminView | null {
  switch (view) {
    case 'menu':
      return null;
    case 'reports':
      return user.role === 'Client' ? null : 'menu';
    case 'machine-dashboard-management':
    case 'records-management':
    case 'curve-details':
    case 'station-details':
      return 'data-management';
    case 'inspection-reports':
    case 'curve-maintenance':
    case 'sse-reports':
    case 'service-reports':
      return 'reports';
    case 'data-management':
    case 'user-management':
    case 'data':
      return 'menu';
  }
}
