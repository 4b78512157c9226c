import { BackButton } from '../../components/ui/back-button.js';
import { Card, CardDescription } from '../../components/ui/card.js';
import { Screen } from '../../components/ui/screen.js';

/** Lazily loaded like the admin area: only Admins and Clients can open it. */
export function MachineDashboardPage() {
  return (
    <Screen wide title="Machine Dashboard" back={<BackButton to="/admin" />}>
      <Card>
        <CardDescription>Machine rollout totals by DEN and AEN arrive in a coming release.</CardDescription>
      </Card>
    </Screen>
  );
}
