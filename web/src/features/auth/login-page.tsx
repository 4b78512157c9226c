import { Trans } from '@lingui/react/macro';
import { ConnectionBanner } from './connection-banner.js';
import { LanguageSwitch } from './language-switch.js';
import { LoginForm } from './login-form.js';

export function LoginPage() {
  return (
    <div className="mx-auto flex min-h-dvh w-full max-w-md flex-col gap-4 px-4 py-8">
      <header className="flex flex-col items-center gap-3 text-center">
        <LanguageSwitch />
        <h1 className="text-2xl font-bold text-slate-900">
          <Trans>HKMI Field Service</Trans>
        </h1>
        <p className="mt-1 text-base text-slate-700">
          <Trans>Railway curve lubrication inspections</Trans>
        </p>
      </header>
      <main className="flex flex-col gap-4">
        <ConnectionBanner />
        <LoginForm />
      </main>
    </div>
  );
}
