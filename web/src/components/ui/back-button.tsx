import { useLingui } from '@lingui/react/macro';
import { useNavigate } from 'react-router';
import { Button } from './button.js';

/** The header's Back action: always an explicit target, as the spec names one per screen. */
export function BackButton({ to, label }: { to: string; label?: string }) {
  const { t } = useLingui();
  const navigate = useNavigate();
  return (
    <Button variant="outline" size="sm" onClick={() => navigate(to)}>
      <span aria-hidden="true">←</span>
      {label ?? t`Back`}
    </Button>
  );
}
