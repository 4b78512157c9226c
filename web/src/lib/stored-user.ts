import { type PublicUser, publicUserSchema } from '../../../common/schemas/auth.js';
import { readItem, removeItem, writeItem } from './safe-storage.js';
import { USER_STORAGE_KEY } from './storage-keys.js';

/**
 * The UI copy of the signed-in user (localStorage 'hkmi_user'). It only decides what to
 * draw; the server decides what is allowed from the session cookie.
 */
export function readStoredUser(): PublicUser | null {
  const raw = readItem('local', USER_STORAGE_KEY);
  if (raw === null) return null;
  try {
    const parsed = publicUserSchema.safeParse(JSON.parse(raw));
    if (parsed.success) return parsed.data;
  } catch {
    // Falls through: a value we cannot read is treated like no user at all.
  }
  removeItem('local', USER_STORAGE_KEY);
  return null;
}

export function writeStoredUser(user: PublicUser): void {
  writeItem('local', USER_STORAGE_KEY, JSON.stringify(user));
}

export function clearStoredUser(): void {
  removeItem('local', USER_STORAGE_KEY);
}

/**
 * The X-User-Data header value: the stored user as JSON. Header values must be Latin-1, and
 * names may be written in Devanagari or other scripts, so every non-ASCII character is sent
 * as a JSON \u escape; the value stays valid JSON for the same user.
 */
export function userDataHeaderValue(): string | null {
  const user = readStoredUser();
  if (user === null) return null;
  return JSON.stringify(user).replace(
    /[\u007f-\uffff]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
