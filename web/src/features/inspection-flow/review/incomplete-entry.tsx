import { Trans } from '@lingui/react/macro';
import { useNavigate } from 'react-router';
import { Button } from '../../../components/ui/button.js';
import { Card, CardDescription, CardTitle } from '../../../components/ui/card.js';

/**
 * A stored entry that lacks the curve details (an older app version, or storage edited by
 * hand) cannot be reviewed or submitted; saying so beats a record with blank fields.
 */
export function IncompleteEntry() {
  const navigate = useNavigate();
  return (
    <Card>
      <CardTitle>
        <Trans>Inspection details missing</Trans>
      </CardTitle>
      <CardDescription className="mt-1 text-base">
        <Trans>The curve details of this inspection were not found. Please start the inspection again.</Trans>
      </CardDescription>
      <Button size="lg" className="mt-4 w-full" onClick={() => navigate('/purpose', { replace: true })}>
        <Trans>Start Again</Trans>
      </Button>
    </Card>
  );
}
