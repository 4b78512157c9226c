import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { PublicUser } from '../../../../../common/schemas/auth.js';
import { jsonResponse, stubFetch } from '../../../test/fetch-stub.js';
import { renderApp } from '../../../test/render-app.js';
import { admin, client, storeUser } from '../../../test/users.js';

const errorAnswer = (codes: string[]) => ({
  description: codes.join(', '),
  content: { 'application/json': { schema: { allOf: [{ $ref: '#/components/schemas/ErrorAnswer' }, { properties: { code: { enum: codes } } }] } } },
});

/** A small document shaped as the server makes it (server/features/api-docs). */
const DOCUMENT = {
  openapi: '3.1.0',
  info: { title: 'Curve lubrication field app API', version: '0.1.0' },
  components: {
    schemas: {
      ErrorAnswer: {
        type: 'object',
        properties: { code: { type: 'string' }, message: { type: 'string' }, requestId: { type: 'string' } },
        required: ['code', 'message'],
      },
    },
  },
  paths: {
    '/api/health': {
      get: {
        operationId: 'getApiHealth',
        summary: 'Whether the process and its database answer',
        description: 'Access: public, no session needed.',
        tags: ['Health'],
        'x-access': { kind: 'public' },
        responses: {
          '200': {
            description: 'Default Response',
            content: { 'application/json': { schema: { type: 'object', properties: { status: { type: 'string', enum: ['ok', 'degraded'] } }, required: ['status'] } } },
          },
          '500': errorAnswer(['INTERNAL']),
        },
      },
    },
    '/api/admin/stations/{id}': {
      put: {
        operationId: 'putApiAdminStationsId',
        summary: 'Change a station',
        tags: ['Stations'],
        'x-access': { kind: 'roles', roles: ['Admin'] },
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } }],
        requestBody: {
          content: {
            'application/json': {
              schema: {
                type: 'object',
                properties: { stationName: { type: 'string', maxLength: 100 }, section: { anyOf: [{ type: 'string' }, { type: 'null' }] } },
                required: ['stationName'],
              },
            },
          },
        },
        responses: {
          '200': {
            description: 'Default Response',
            content: { 'application/json': { schema: { type: 'object', properties: { station: { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] } }, required: ['station'] } } },
          },
          '403': errorAnswer(['CROSS_SITE_REQUEST', 'FORBIDDEN']),
          '404': errorAnswer(['NOT_FOUND']),
        },
      },
    },
  },
};

function signedInAs(user: PublicUser, document: () => Response = () => jsonResponse(200, DOCUMENT)) {
  storeUser(user);
  return stubFetch({
    'GET /api/health': () => jsonResponse(200, { status: 'ok', database: 'ok', version: '0.1.0' }),
    'GET /api/auth/me': () => jsonResponse(200, { user }),
    'GET /api/openapi.json': document,
  });
}

describe('the API reference', () => {
  it('is opened from the admin menu and lists the operations by group, each opening to its access, request, answer and errors', async () => {
    const requests = signedInAs(admin);
    renderApp('/admin');
    const card = await screen.findByRole('region', { name: 'API Reference' });
    await userEvent.click(within(card).getByRole('button', { name: 'Open the API Reference' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/admin?view=api-reference'));
    expect(await screen.findByRole('heading', { level: 2, name: 'API Reference' })).toBeInTheDocument();

    expect(await screen.findByText('API version 0.1.0: 2 operations.', { exact: false })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Download the OpenAPI document (JSON)' })).toHaveAttribute('href', '/api/openapi.json');
    const groups = screen.getByRole('navigation', { name: 'API groups' });
    expect(within(groups).getAllByRole('link').map((link) => link.textContent)).toEqual(['Health', 'Stations']);

    const stations = screen.getByRole('region', { name: 'Stations' });
    await userEvent.click(within(stations).getByText('/api/admin/stations/{id}'));
    expect(within(stations).getByText('Signed-in users with the role: Admin')).toBeVisible();
    const parameters = within(stations).getByRole('region', { name: 'Parameters of PUT /api/admin/stations/{id}' });
    expect(parameters).toHaveTextContent('in the path: id integer · required · minimum: 1');
    const body = within(stations).getByRole('region', { name: 'Request body of PUT /api/admin/stations/{id}' });
    expect(body).toHaveTextContent('stationName string · required · maxLength: 100');
    expect(body).toHaveTextContent('section string · or null · optional');
    const answer = within(stations).getByRole('region', { name: 'Answer 200 of PUT /api/admin/stations/{id}' });
    expect(answer).toHaveTextContent('station object · required');
    expect(answer).toHaveTextContent('id integer · required');
    const errors = within(stations).getByRole('region', { name: 'Errors of PUT /api/admin/stations/{id}' });
    expect(errors).toHaveTextContent('403 CROSS_SITE_REQUEST, FORBIDDEN');
    expect(errors).toHaveTextContent('404 NOT_FOUND');

    const health = screen.getByRole('region', { name: 'Health' });
    await userEvent.click(within(health).getByText('/api/health'));
    expect(within(health).getByText('Public: no sign-in needed')).toBeVisible();
    expect(within(health).getByRole('region', { name: 'Answer 200 of GET /api/health' })).toHaveTextContent('status string · required · values: "ok", "degraded"');
    // Asked once, with the session cookie.
    expect(requests.filter((r) => r.url === '/api/openapi.json')).toEqual([expect.objectContaining({ credentials: 'include' })]);
  });

  it("says so when the document cannot be loaded, with the server's reason", async () => {
    signedInAs(admin, () => jsonResponse(403, { code: 'FORBIDDEN', message: "You don't have permission to access this section." }));
    renderApp('/admin?view=api-reference');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent("Failed to load the API reference: You don't have permission to access this section.");
  });

  it('is not opened for a Client, who is sent to their reports', async () => {
    const requests = signedInAs(client);
    renderApp('/admin?view=api-reference');
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/admin$/));
    expect(await screen.findByRole('heading', { level: 2, name: 'Reports & Analytics' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'API Reference' })).not.toBeInTheDocument();
    expect(requests.some((r) => r.url === '/api/openapi.json')).toBe(false);
  });
});
