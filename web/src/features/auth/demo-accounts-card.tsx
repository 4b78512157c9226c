import { useLingui } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import type { Role } from '../../../../common/constants.js';
import { demoAccountsResponseSchema, healthResponseSchema } from '../../../../common/schemas/auth.js';
import { Card, CardDescription, CardTitle } from '../../components/ui/card.js';
import { roleLabel } from '../../lib/role-label.js';

const ROLE_ORDER: Readonly<Record<Role, number>> = { Admin: 0, Technician: 1, Client: 2 };

function parseDemoAccounts(data: unknown) {
  const parsed = demoAccountsResponseSchema.parse(data);
  const accounts = [...parsed.accounts].sort((a, b) => ROLE_ORDER[a.role] - ROLE_ORDER[b.role]);
  return { accounts, password: parsed.password };
}

/**
 * Demo sign-in details. Asked for only when the health check (which the connection banner
 * makes anyway) says demo mode is on, so a production login page makes no request that would
 * answer 404; a 404 or any failure hides the card.
 */
export function DemoAccountsCard({ onPick }: { onPick: (employeeId: string, password: string) => void }) {
  // Re-renders in a newly chosen language (the role names).
  useLingui();
  const health = useQuery({ queryKey: ['/api/health'], select: (data: unknown) => healthResponseSchema.parse(data) });
  const demo = useQuery({ queryKey: ['/api/auth/demo-accounts'], select: parseDemoAccounts, enabled: health.data?.demo === true });
  if (!demo.data || demo.data.accounts.length === 0) return null;
  const { accounts, password } = demo.data;

  return (
    <Card aria-labelledby="demo-accounts-title" className="border-dashed">
      <CardTitle id="demo-accounts-title">
        <Trans>Demo accounts</Trans>
      </CardTitle>
      <CardDescription className="mt-1">
        <Trans>Tap an account to fill in the form.</Trans>
      </CardDescription>
      <ul className="mt-3 flex flex-col gap-2">
        {accounts.map((account) => (
          <li key={account.employeeId}>
            <button
              type="button"
              onClick={() => onPick(account.employeeId, password)}
              className="flex min-h-12 w-full items-center justify-between gap-3 rounded-lg border border-slate-300 px-3 text-left hover:bg-slate-100"
            >
              <span className="font-semibold">{roleLabel(account.role)}</span>
              <span className="font-mono text-base">{account.employeeId}</span>
            </button>
          </li>
        ))}
      </ul>
      <p className="mt-3 text-base">
        <Trans>
          Password for all: <span className="font-mono font-semibold">{password}</span>
        </Trans>
      </p>
    </Card>
  );
}
