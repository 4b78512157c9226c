import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { type ComponentType, lazy, type LazyExoticComponent } from 'react';
import type { PublicUser } from '../../../../common/schemas/auth.js';

/**
 * The admin dashboard's views, one entry each: the `?view=` name, title, parent (Back's
 * target and the menu that offers it), who may open it, its tile on that menu and its body,
 * loaded when first opened. Titles, guards, Back targets and menus all derive from this table;
 * a new view is one entry here and its own folder. Its texts are Lingui's lazy descriptors,
 * read in the language shown when they are drawn.
 */

/** Who may open a view. Technicians never reach the dashboard (the /admin route guard). */
type Access =
  | 'admins'
  /** The reports landing and three of its generators: Clients too. */
  | 'admins-and-clients'
  /** Admins whose employee ID is listed in OWNER_EMPLOYEE_IDS. */
  | 'owners';

export interface TileGroup {
  title: MessageDescriptor;
  description: MessageDescriptor;
}

/** How a parent's menu offers a view: a tile of its own, or a button on a group's card. */
export type Tile = { description: MessageDescriptor } | { group: TileGroup };

export interface ViewTile {
  view: AdminView;
  title: MessageDescriptor;
  tile: Tile;
}

/** What every view body is given. */
export interface ViewBodyProps {
  user: PublicUser;
  goTo: (view: AdminView) => void;
  /** Leaves the view where Back does: for a body's own Done or Cancel. */
  goBack: () => void;
  /** The views under this one that its menu offers the user, in the table's order. */
  tiles: readonly ViewTile[];
}

interface ViewEntry<Id extends string = string> {
  title: MessageDescriptor;
  /** Back's target, and the menu that offers the view; null: Back leaves the dashboard. */
  parent: Id | null;
  access: Access;
  tile?: Tile;
  /** Other `?view=` names that open this view. */
  aliases?: readonly string[];
  body: LazyExoticComponent<ComponentType<ViewBodyProps>>;
}

function lazyBody<M>(load: () => Promise<M>, pick: (module: M) => ComponentType<ViewBodyProps>) {
  return lazy(async () => ({ default: pick(await load()) }));
}

/** The table, checked so that every parent is a view of it. */
function defineViews<const V extends Record<string, ViewEntry>>(views: V & { [K in keyof V]: { parent: Extract<keyof V, string> | null } }): V {
  return views;
}

const menus = () => import('./menu-views.js');
const register = () => import('./register/index.js');
const reports = () => import('./reports/index.js');
const STATION_AND_CURVE_DATA: TileGroup = { title: msg`Station & Curve Data`, description: msg`Curve and station reference data` };

const TABLE = defineViews({
  menu: { title: msg`Administration`, parent: null, access: 'admins', body: lazyBody(menus, (m) => m.AdminMenu) },
  'data-management': {
    title: msg`Data Management`,
    parent: 'menu',
    access: 'admins',
    tile: { description: msg`Inspection records, images, stations and curves` },
    // The spec names a view 'data' without saying what it shows: its address opens this one.
    aliases: ['data'],
    body: lazyBody(menus, (m) => m.DataManagement),
  },
  'records-management': {
    title: msg`Inspection Records & Images`,
    parent: 'data-management',
    access: 'admins',
    tile: { description: msg`Browse inspection records and their photos` },
    body: lazyBody(() => import('./records/index.js'), (m) => m.RecordsView),
  },
  'curve-details': {
    title: msg`Curve Details`,
    parent: 'data-management',
    access: 'admins',
    tile: { group: STATION_AND_CURVE_DATA },
    body: lazyBody(register, (m) => m.CurveDetailsView),
  },
  'station-details': {
    title: msg`Station Details`,
    parent: 'data-management',
    access: 'admins',
    tile: { group: STATION_AND_CURVE_DATA },
    body: lazyBody(register, (m) => m.StationDetailsView),
  },
  'machine-dashboard-management': {
    title: msg`Machine Dashboard`,
    parent: 'data-management',
    access: 'owners',
    tile: { description: msg`Update machine rollout progress` },
    body: lazyBody(
      () => import('../machine-dashboard/index.js'),
      (m) =>
        // Done and Cancel return where Back does.
        function MachineDashboardBody({ goBack }: ViewBodyProps) {
          return <m.MachineDashboardManagement onDone={goBack} />;
        },
    ),
  },
  reports: {
    title: msg`Reports & Analytics`,
    parent: 'menu',
    access: 'admins-and-clients',
    tile: { description: msg`Installation progress and reports` },
    body: lazyBody(menus, (m) => m.Reports),
  },
  'inspection-reports': {
    title: msg`PDF Reports`,
    parent: 'reports',
    access: 'admins-and-clients',
    tile: { description: msg`Inspection reports by division and service type` },
    body: lazyBody(reports, (m) => m.InspectionReportsView),
  },
  'curve-maintenance': {
    title: msg`Excel Reports`,
    parent: 'reports',
    access: 'admins-and-clients',
    tile: { description: msg`Curves due for service or CoF measurement` },
    body: lazyBody(reports, (m) => m.CurveMaintenanceView),
  },
  'sse-reports': {
    title: msg`SSE CoF Measurement`,
    parent: 'reports',
    access: 'admins-and-clients',
    tile: { description: msg`CoF measurements by SSE` },
    body: lazyBody(reports, (m) => m.SseReportsView),
  },
  'service-reports': {
    title: msg`Service Reports`,
    parent: 'reports',
    access: 'admins',
    tile: { description: msg`Service inspection reports` },
    body: lazyBody(reports, (m) => m.ServiceReportsView),
  },
  actions: {
    title: msg`Follow-up Actions`,
    parent: 'reports',
    access: 'admins-and-clients',
    tile: { description: msg`Faults reported in the field, open until a visit proves them fixed` },
    body: lazyBody(() => import('./actions/index.js'), (m) => m.ActionsView),
  },
  analytics: {
    title: msg`Analytics`,
    parent: 'reports',
    access: 'admins-and-clients',
    tile: { description: msg`Schedule compliance, friction, faults and field work` },
    body: lazyBody(() => import('./analytics/index.js'), (m) => m.AnalyticsView),
  },
  'user-management': {
    title: msg`User Management`,
    parent: 'menu',
    access: 'admins',
    tile: { description: msg`Add users and reset passwords` },
    body: lazyBody(() => import('./users/index.js'), (m) => m.UserManagement),
  },
  // No tile (the spec's menu has three): the menu's API Reference card opens it.
  'api-reference': {
    title: msg`API Reference`,
    parent: 'menu',
    access: 'admins',
    body: lazyBody(() => import('./api-reference/index.js'), (m) => m.ApiReferenceView),
  },
});

export type AdminView = Extract<keyof typeof TABLE, string>;
const VIEWS: Readonly<Record<AdminView, ViewEntry<AdminView>>> = TABLE;
const VIEW_NAMES = Object.keys(VIEWS) as AdminView[];

/** The view a `?view=` value names (by its name or an alias), or null for none. */
export function viewNamed(name: string | null): AdminView | null {
  if (name === null) return null;
  return VIEW_NAMES.find((view) => view === name || VIEWS[view].aliases?.includes(name)) ?? null;
}

export const viewTitle = (view: AdminView): MessageDescriptor => VIEWS[view].title;
export const viewBody = (view: AdminView) => VIEWS[view].body;

/** Where a user lands without a view: Clients at reports, everyone else at the menu. */
export function startViewFor(user: PublicUser): AdminView {
  return user.role === 'Client' ? 'reports' : 'menu';
}

export function mayOpenView(user: PublicUser, view: AdminView): boolean {
  const { access } = VIEWS[view];
  if (user.role === 'Client') return access === 'admins-and-clients';
  return access !== 'owners' || user.isOwner;
}

/**
 * The view a Back press leads to: the parent, where the user may open it. Null where Back
 * leaves the dashboard: the menu, and a Client's reports landing (whose back button logs out).
 */
export function backTargetOf(view: AdminView, user: PublicUser): AdminView | null {
  const { parent } = VIEWS[view];
  return parent !== null && mayOpenView(user, parent) ? parent : null;
}

/**
 * The tiles of the views under `view`. An owner's view is offered to owners only; a Client
 * is shown every report card (as the spec's landing has four) and meets the Access
 * Restricted toast at the one not theirs.
 */
export function tilesUnder(view: AdminView, user: PublicUser): ViewTile[] {
  return VIEW_NAMES.flatMap((child) => {
    const { parent, access, title, tile } = VIEWS[child];
    if (parent !== view || tile === undefined || (access === 'owners' && !user.isOwner)) return [];
    return [{ view: child, title, tile }];
  });
}
