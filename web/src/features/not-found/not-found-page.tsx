import { Trans } from '@lingui/react/macro';
import { Link } from 'react-router';
import { buttonClasses } from '../../components/ui/button.js';
import { Card } from '../../components/ui/card.js';

export function NotFoundPage() {
  return (
    <main className="mx-auto flex min-h-dvh w-full max-w-md flex-col justify-center gap-4 p-4">
      <Card>
        <h1 className="text-2xl font-bold text-slate-900">
          <Trans>404 Page Not Found</Trans>
        </h1>
        <p className="mt-2 text-base text-slate-700">
          <Trans>Did you forget to add the page to the router?</Trans>
        </p>
      </Card>
      <Link to="/" className={buttonClasses('outline', 'lg')}>
        <Trans>Go to start</Trans>
      </Link>
    </main>
  );
}
