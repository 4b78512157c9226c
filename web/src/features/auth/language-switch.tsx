import { useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { cn } from '../../lib/cn.js';
import { LANGUAGE_NAMES, LANGUAGES, type Language } from '../../lib/i18n.js';
import { useAuth } from './auth-context.js';

/**
 * The language switch of the login screen, /purpose and the admin header: each language named
 * in its own script, so a reader who knows only one finds it. The choice holds on this device at
 * once (offline too) and follows the signed-in user to other phones.
 */
export function LanguageSwitch({ className }: { className?: string }) {
  const { t, i18n } = useLingui();
  const { chooseLanguage } = useAuth();
  const [switching, setSwitching] = useState(false);
  const current = i18n.locale;

  const choose = async (language: Language) => {
    if (language === current || switching) return;
    setSwitching(true);
    try {
      await chooseLanguage(language);
    } finally {
      setSwitching(false);
    }
  };

  return (
    <div role="group" aria-label={t`Language`} className={cn('inline-flex rounded-lg border-2 border-slate-300 bg-white p-0.5', className)}>
      {LANGUAGES.map((language) => (
        <button
          key={language}
          type="button"
          // The name is in its own language: screen readers pronounce it in that language.
          lang={language}
          aria-pressed={language === current}
          aria-busy={switching || undefined}
          onClick={() => void choose(language)}
          className={cn(
            'min-h-11 min-w-16 rounded-md px-3 text-base font-semibold',
            language === current ? 'bg-brand-700 text-white' : 'text-slate-900 hover:bg-slate-100',
          )}
        >
          {LANGUAGE_NAMES[language]}
        </button>
      ))}
    </div>
  );
}
