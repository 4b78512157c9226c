import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { jsonResponse, type RecordedRequest, stubFetch } from '../../../test/fetch-stub.js';
import { renderApp } from '../../../test/render-app.js';
import { admin, storeUser } from '../../../test/users.js';

type Handler = (request: RecordedRequest) => Response | Promise<Response>;

function asAdmin(routes: Record<string, Handler>) {
  storeUser(admin);
  return stubFetch({
    'GET /api/health': () => jsonResponse(200, { status: 'ok', database: 'ok', version: '0.1.0' }),
    'GET /api/auth/me': () => jsonResponse(200, { user: admin }),
    ...routes,
  });
}

async function openDataManagement() {
  renderApp('/admin?view=data-management');
  await screen.findByRole('heading', { level: 2, name: 'Data Management' });
  return screen.getByRole('region', { name: 'Data Summary' });
}

describe('data summary', () => {
  it('shows the three counts from the server, and loads no list to count them', async () => {
    const requests = asAdmin({
      'GET /api/data-summary': () => jsonResponse(200, { curveRecords: 10_000, stations: 412, inspectionRecords: 123_456 }),
    });
    const card = await openDataManagement();
    const count = async (label: string) => (await within(card).findByText(label, { selector: 'dt' })).nextElementSibling;
    expect(await count('Curve Records')).toHaveTextContent('10,000');
    expect(await count('Stations')).toHaveTextContent('412');
    expect(await count('Inspection Records')).toHaveTextContent('1,23,456');
    expect(requests.map((r) => r.url.split('?')[0])).not.toContain('/api/inspections');
    expect(requests.map((r) => r.url.split('?')[0])).not.toContain('/api/consolidated-curves');
    // Data management has the 'Import Station Data' button.
    expect(screen.getByRole('button', { name: 'Import Station Data' })).toBeInTheDocument();
  });

  it('shows the server message when the counts fail', async () => {
    asAdmin({ 'GET /api/data-summary': () => jsonResponse(503, { code: 'UNAVAILABLE', message: 'The database is not reachable' }) });
    const card = await openDataManagement();
    expect(await within(card).findByRole('alert')).toHaveTextContent('Failed to load the data summary: The database is not reachable');
  });
});
