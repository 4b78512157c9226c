import { loginResponseSchema, type PublicUser } from '../../../../common/schemas/auth.js';
import { apiRequest } from '../../lib/api-client.js';
import {
  activeLanguage,
  applyLanguage,
  deviceLanguage,
  hasUnsavedLanguage,
  type Language,
  markLanguageSaved,
} from '../../lib/i18n.js';

/** PUT /api/auth/language: the user's answer with the language stored, or null (offline, refused). */
async function saveUserLanguage(language: Language): Promise<PublicUser | null> {
  try {
    const res = await apiRequest('PUT', '/api/auth/language', { language });
    const parsed = loginResponseSchema.safeParse(await res.json());
    return parsed.success ? parsed.data.user : null;
  } catch {
    // Offline: the device keeps the choice marked unsaved and offers it at the next sign-in.
    return null;
  }
}

/**
 * Brings the device and the signed-in user's account to one language. A choice made on this
 * device and not yet stored (on the login screen, or offline) is the newest and is saved to the
 * account; otherwise the account's choice follows the user to this phone. Answers the user as
 * the server now has them, when it changed.
 */
export async function reconcileLanguage(user: PublicUser): Promise<PublicUser | null> {
  if (hasUnsavedLanguage()) {
    const language = deviceLanguage();
    if (user.language === language) {
      markLanguageSaved();
      return null;
    }
    const saved = await saveUserLanguage(language);
    if (saved !== null) markLanguageSaved();
    return saved;
  }
  if (user.language && user.language !== activeLanguage()) await applyLanguage(user.language);
  return null;
}
