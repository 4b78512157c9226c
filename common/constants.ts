/** Business constants (docs/architecture.md, 'Business constants'), shared by the server and the web app. */

export const DIVISIONS = ['RTM/WR', 'FZR/NR', 'BRC/WR', 'NDLS/NR', 'JBP/WCR'] as const;
export type Division = (typeof DIVISIONS)[number];

export const ROLES = ['Technician', 'Admin', 'Client'] as const;
export type Role = (typeof ROLES)[number];
export const DEFAULT_ROLE: Role = 'Technician';

/**
 * The interface's languages (issue 27): English as the spec writes it, and Hindi, which most
 * technicians at the track side read more easily. One list, so the database's check, the
 * server's schemas and the web app's switch cannot disagree about which exist.
 */
export const LANGUAGES = ['en', 'hi'] as const;
export type Language = (typeof LANGUAGES)[number];

/** Shortest password an admin may set (a phone number of 10+ digits always meets it). */
export const MIN_PASSWORD_LENGTH = 8;

export const INSPECTION_TYPES = ['Service', 'CoF'] as const;
export type InspectionType = (typeof INSPECTION_TYPES)[number];
export const DEFAULT_INSPECTION_TYPE: InspectionType = 'Service';

export const LINES = ['Up', 'Down', 'Single'] as const;
export type Line = (typeof LINES)[number];

export const LOCATIONS = ['Far End', 'Near End'] as const;

export const SERVICE_UPDATES = ['working-fine', 'part-broken', 'part-stolen', 'uninstall'] as const;
export type ServiceUpdate = (typeof SERVICE_UPDATES)[number];

/** The four answers as the field app and the records view show them (the spec's labels). */
export const SERVICE_UPDATE_LABELS: Readonly<Record<ServiceUpdate, string>> = {
  'working-fine': 'Machine is working fine',
  'part-broken': 'Some part is broken',
  'part-stolen': 'Some part is stolen',
  uninstall: 'Uninstall the machine',
};

/** Days between two visits of the same kind to one curve. */
export const SERVICE_INTERVAL_DAYS = 15;
export const COF_INTERVAL_DAYS = 30;

export const MAX_PHOTO_BYTES = 10 * 1024 * 1024;
export const MIN_REAL_IMAGE_BYTES = 6000;
export const JPEG_QUALITY = 0.8;
export const CAMERA_IDEAL_WIDTH = 1920;
export const CAMERA_IDEAL_HEIGHT = 1080;

export const GREASE_DEPTH_MIN = 0;
export const GREASE_DEPTH_MAX = 10;
export const GREASE_DEPTH_STEP = 0.1;

export const CURVE_LIST_LIMIT = 1000;

/** The largest id a PostgreSQL integer column holds: a path's id above it is a 400, never a database error. */
export const INT4_MAX = 2_147_483_647;

export const TOAST_LIMIT = 1;
export const TOAST_DURATION_MS = 5000;

/** localStorage key of the signed-in user's UI copy (the original app's key). */
export const USER_STORAGE_KEY = 'hkmi_user';

/** Name of the httpOnly session cookie. */
export const SESSION_COOKIE = 'hkmi_session';
