import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, stubFetch } from '../../../test/fetch-stub.js';
import { renderApp } from '../../../test/render-app.js';
import { client, storeUser } from '../../../test/users.js';

const notifications = () => within(screen.getByRole('region', { name: 'Notifications' }));

afterEach(() => {
  vi.restoreAllMocks();
});

// The lazily loaded view and its polling take longer than the default 5 s on a busy shared machine.
describe('Excel Reports', { timeout: 30_000 }, () => {
  it.each([
    [
      'the officer has too many reports being made',
      jsonResponse(429, { code: 'TOO_MANY_REPORT_JOBS', message: 'You have 2 reports still being made. Please wait for one of them to finish, then ask again' }),
      'Failed to generate curve maintenance report: You have 2 reports still being made. Please wait for one of them to finish, then ask again',
    ],
    ['the answer says nothing', new Response('', { status: 500 }), 'Failed to generate curve maintenance report'],
  ])("shows the Error toast with the server's reason when %s", async (_case, answer, message) => {
    storeUser(client);
    stubFetch({
      'GET /api/health': () => jsonResponse(200, { status: 'ok', database: 'ok', version: '0.1.0' }),
      'GET /api/auth/me': () => jsonResponse(200, { user: client }),
      'GET /api/reports': () => jsonResponse(200, { reports: [] }),
      'GET /api/register-filters': () => jsonResponse(200, { sections: [], sses: [] }),
      'GET /api/schedule/summary': () => jsonResponse(200, { asOf: '2026-11-23', cofAlertThreshold: 0.25, sections: [] }),
      'POST /api/reports/curve-maintenance': () => answer,
    });
    renderApp('/admin?view=curve-maintenance');
    // The view's chunk loads lazily: more than the default second on a busy shared machine.
    await screen.findByRole('heading', { level: 2, name: 'Excel Reports' }, { timeout: 20_000 });
    await userEvent.click(screen.getByRole('button', { name: 'Generate Excel Report' }));

    expect(await notifications().findByText(message)).toBeInTheDocument();
    expect(notifications().getByText('Error')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Generate Excel Report' })).toBeEnabled();
  });
});
