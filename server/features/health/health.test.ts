import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/build-test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

describe('GET /api/health', () => {
  it('answers ok with the database checked, and is never cached', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ status: 'ok', database: 'ok' });
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('sends security headers and a request id on every answer', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['content-security-policy']).toContain("default-src 'self'");
    expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers an unknown API path with a JSON 404', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/no-such-thing' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ code: 'ROUTE_NOT_FOUND', message: 'No such API route: GET /api/no-such-thing' });
  });

  it('says demo mode is off, and does not serve the demo accounts (404)', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/health' })).json()).toMatchObject({ demo: false });
    const response = await t.app.inject({ method: 'GET', url: '/api/auth/demo-accounts' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ code: 'NOT_FOUND' });
    expect(response.body).not.toContain('demo1234');
  });

  it('answers 503 when the database is gone', async () => {
    const broken = await buildTestApp();
    await broken.database.close();
    const response = await broken.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toMatchObject({ status: 'degraded', database: 'unreachable' });
    await broken.app.close();
  });
});

describe('demo mode', () => {
  it('offers the demo sign-ins', async () => {
    const demo = await buildTestApp({ demo: true });
    expect((await demo.app.inject({ method: 'GET', url: '/api/health' })).json()).toMatchObject({ demo: true });
    const response = await demo.app.inject({ method: 'GET', url: '/api/auth/demo-accounts' });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.accounts.map((a: { role: string }) => a.role)).toEqual(['Admin', 'Technician', 'Client']);
    expect(body.password.length).toBeGreaterThan(4);
    await demo.close();
  });
});
