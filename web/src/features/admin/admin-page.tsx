import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '../../components/ui/button.js';
import { Card, CardDescription, CardTitle } from '../../components/ui/card.js';
import { Screen } from '../../components/ui/screen.js';
import { useAuth, useSignedInUser } from '../auth/index.js';

/**
 * The admin dashboard's frame. Loaded lazily (its own chunk), so technicians' phones never
 * download admin code. The views themselves arrive with later issues.
 */
export function AdminPage() {
  const user = useSignedInUser();
  const { logout } = useAuth();
  const navigate = useNavigate();
  const [leaving, setLeaving] = useState(false);
  const isClient = user.role === 'Client';

  const onLogout = async () => {
    setLeaving(true);
    await logout(() => navigate('/login', { replace: true }));
  };

  // Clients have no field app to go back to: their back button signs them out (spec section 2).
  const back = isClient ? (
    <Button variant="outline" size="sm" onClick={() => void onLogout()} disabled={leaving}>
      Logout
    </Button>
  ) : (
    <Button variant="outline" size="sm" onClick={() => navigate('/purpose')}>
      <span aria-hidden="true">←</span>
      Back to Main App
    </Button>
  );

  return (
    <Screen
      wide
      title="Admin Dashboard"
      subtitle={
        <>
          <span className="font-semibold">{user.name}</span> · {user.role}
        </>
      }
      back={back}
    >
      {isClient ? (
        <Card aria-labelledby="division-access-title">
          <CardTitle id="division-access-title">Division access</CardTitle>
          <p className="mt-1 text-base">{user.divisionAccess ?? 'No division assigned'}</p>
        </Card>
      ) : null}
      <Card>
        <CardTitle>{isClient ? 'Reports & Analytics' : 'Administration'}</CardTitle>
        <CardDescription className="mt-1">
          {isClient
            ? 'Reports for your division arrive in a coming release.'
            : 'Data management, reports and user management arrive in a coming release.'}
        </CardDescription>
      </Card>
    </Screen>
  );
}
