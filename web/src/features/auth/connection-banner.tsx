import { useLingui } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import { healthResponseSchema } from '../../../../common/schemas/auth.js';
import { errorStatus } from '../../lib/api-client.js';
import { cn } from '../../lib/cn.js';
import { useOnlineStatus } from './use-online-status.js';

const HEALTH_RECHECK_MS = 30_000;

type Tone = 'ok' | 'warn' | 'bad';

// Through cn(): the i18n lint then knows these for classes, not texts.
const toneClasses: Record<Tone, string> = {
  ok: cn('border-green-800 bg-green-50 text-green-900'),
  warn: cn('border-amber-700 bg-amber-50 text-amber-950'),
  bad: cn('border-red-800 bg-red-50 text-red-900'),
};

const dotClasses: Record<Tone, string> = {
  ok: 'bg-green-700',
  warn: 'bg-amber-600',
  bad: 'bg-red-700',
};

function parseHealth(data: unknown) {
  return healthResponseSchema.parse(data);
}

/** The login screen's answer to "can I sign in from here?". */
export function ConnectionBanner() {
  const { t } = useLingui();
  const online = useOnlineStatus();
  const health = useQuery({
    queryKey: ['/api/health'],
    select: parseHealth,
    // The one polled query: the banner should follow a server coming back.
    refetchInterval: HEALTH_RECHECK_MS,
    refetchOnReconnect: 'always',
  });

  let tone: Tone;
  let title: string;
  let detail: string | null = null;
  if (!online) {
    tone = 'bad';
    title = t`Offline`;
    detail = t`No network on this device. Signing in needs a connection.`;
  } else if (health.data?.status === 'ok') {
    tone = 'ok';
    title = t`Connected`;
  } else if (health.isError && errorStatus(health.error) === 503) {
    tone = 'bad';
    title = t`Server unavailable`;
    detail = t`The server cannot reach its database. Try again in a few minutes.`;
  } else if (health.isError || health.data !== undefined) {
    tone = 'bad';
    title = t`Server unreachable`;
    detail = t`Check your connection. The app keeps checking every 30 seconds.`;
  } else {
    tone = 'warn';
    title = t`Checking connection...`;
  }

  return (
    <div role="status" className={cn('flex items-start gap-3 rounded-lg border-2 px-3 py-2', toneClasses[tone])}>
      <span aria-hidden="true" className={cn('mt-1.5 size-3 shrink-0 rounded-full', dotClasses[tone])} />
      <div>
        <p className="font-semibold">{title}</p>
        {detail ? <p className="text-sm">{detail}</p> : null}
      </div>
    </div>
  );
}
