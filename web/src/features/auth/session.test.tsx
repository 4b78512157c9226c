import { act, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { apiRequest } from '../../lib/api-client.js';
import { USER_STORAGE_KEY } from '../../lib/storage-keys.js';
import { jsonResponse, stubFetch } from '../../test/fetch-stub.js';
import { renderApp } from '../../test/render-app.js';
import { storeUser, technician } from '../../test/users.js';

const healthy = () => jsonResponse(200, { status: 'ok', database: 'ok', version: '0.1.0' });

describe('session', () => {
  it('draws the stored user at once, before the server answers', () => {
    storeUser(technician);
    stubFetch({ 'GET /api/auth/me': () => new Promise<Response>(() => {}) });
    renderApp('/purpose');
    expect(screen.getByRole('heading', { name: 'Select Purpose' })).toBeInTheDocument();
    expect(screen.getByText('Ravi Kumar')).toBeInTheDocument();
  });

  it('forgets the stored user and goes to /login when /api/auth/me answers 401', async () => {
    storeUser(technician);
    stubFetch({
      'GET /api/health': healthy,
      'GET /api/auth/me': () => jsonResponse(401, { code: 'SESSION_EXPIRED', message: 'expired' }),
    });
    renderApp('/purpose');

    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/login$/));
    expect(localStorage.getItem(USER_STORAGE_KEY)).toBeNull();
  });

  it('keeps the user when the server cannot be reached (offline work)', async () => {
    storeUser(technician);
    const requests = stubFetch({ 'GET /api/auth/me': () => Promise.reject(new TypeError('Failed to fetch')) });
    renderApp('/purpose');

    await waitFor(() => expect(requests.some((r) => r.url === '/api/auth/me')).toBe(true));
    // Let the rejected check settle before asserting nothing changed.
    await act(async () => {});
    expect(screen.getByRole('heading', { name: 'Select Purpose' })).toBeInTheDocument();
    expect(JSON.parse(localStorage.getItem(USER_STORAGE_KEY) ?? 'null')).toEqual(technician);
  });

  it('refreshes the stored copy from a fresh /api/auth/me answer', async () => {
    storeUser(technician);
    const renamed = { ...technician, name: 'Ravi K. Sharma' };
    stubFetch({ 'GET /api/auth/me': () => jsonResponse(200, { user: renamed }) });
    renderApp('/purpose');

    expect(await screen.findByText('Ravi K. Sharma')).toBeInTheDocument();
    expect(JSON.parse(localStorage.getItem(USER_STORAGE_KEY) ?? 'null')).toEqual(renamed);
  });

  it('forgets the user when any later call answers 401', async () => {
    storeUser(technician);
    stubFetch({
      'GET /api/health': healthy,
      'GET /api/auth/me': () => jsonResponse(200, { user: technician }),
      'GET /api/inspections': () => jsonResponse(401, { code: 'SESSION_EXPIRED', message: 'expired' }),
    });
    renderApp('/purpose');
    await screen.findByRole('heading', { name: 'Select Purpose' });

    await act(() => apiRequest('GET', '/api/inspections').catch(() => undefined));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/login$/));
    expect(localStorage.getItem(USER_STORAGE_KEY)).toBeNull();
  });
});
