import { useNavigate } from 'react-router';
import { Button } from './button.js';

/** The header's Back action: always an explicit target, as the spec names one per screen. */
export function BackButton({ to, label = 'Back' }: { to: string; label?: string }) {
  const navigate = useNavigate();
  return (
    <Button variant="outline" size="sm" onClick={() => navigate(to)}>
      <span aria-hidden="true">←</span>
      {label}
    </Button>
  );
}
