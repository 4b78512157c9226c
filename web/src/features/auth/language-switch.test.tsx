import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { LANGUAGE_KEY, LANGUAGE_UNSAVED_KEY } from '../../lib/storage-keys.js';
import { jsonResponse, stubFetch } from '../../test/fetch-stub.js';
import { renderApp } from '../../test/render-app.js';
import { storeUser, technician } from '../../test/users.js';

const healthy = () => jsonResponse(200, { status: 'ok', database: 'ok', version: '0.1.0', demo: false });
const DEVANAGARI = /[\u0900-\u097F]/;
/** The sign-in form's button, whatever language it reads in. */
const submitButton = () => screen.getAllByRole('button').find((button) => button.getAttribute('type') === 'submit') as HTMLElement;

describe('The language switch', () => {
  it('names each language in its own script and switches the login screen to Hindi at once', async () => {
    stubFetch({ 'GET /api/health': healthy });
    renderApp('/login');
    const switcher = screen.getByRole('group', { name: 'Language' });
    const hindi = screen.getByRole('button', { name: 'हिंदी' });
    expect(hindi).toHaveAttribute('lang', 'hi');
    expect(screen.getByRole('button', { name: 'English' })).toHaveAttribute('aria-pressed', 'true');

    await userEvent.click(hindi);

    await waitFor(() => expect(document.documentElement.lang).toBe('hi'));
    expect(hindi).toHaveAttribute('aria-pressed', 'true');
    expect(switcher).toHaveAccessibleName(DEVANAGARI);
    expect(submitButton()).toHaveTextContent(DEVANAGARI);
    expect(screen.queryByRole('button', { name: 'Sign In' })).not.toBeInTheDocument();
    // Kept on the device before sign-in, marked for the account.
    expect(localStorage.getItem(LANGUAGE_KEY)).toBe('hi');
    expect(localStorage.getItem(LANGUAGE_UNSAVED_KEY)).toBe('1');
  });

  it('stores a choice made before sign-in on the account once the user signs in', async () => {
    const requests = stubFetch({
      'GET /api/health': healthy,
      'POST /api/auth/login': () => jsonResponse(200, { user: { ...technician, language: null } }),
      'GET /api/auth/me': () => jsonResponse(200, { user: { ...technician, language: null } }),
      'PUT /api/auth/language': () => jsonResponse(200, { user: { ...technician, language: 'hi' } }),
    });
    renderApp('/login');
    await userEvent.click(screen.getByRole('button', { name: 'हिंदी' }));
    await waitFor(() => expect(document.documentElement.lang).toBe('hi'));

    await userEvent.type(screen.getByRole('textbox'), 'TECH001');
    await userEvent.type(document.querySelector('input[type=password]') as HTMLInputElement, 'secret');
    await userEvent.click(submitButton());

    await waitFor(() => expect(requests.find((r) => r.method === 'PUT' && r.url === '/api/auth/language')?.body).toBe('{"language":"hi"}'));
    await waitFor(() => expect(localStorage.getItem(LANGUAGE_UNSAVED_KEY)).toBe('0'));
    expect(document.documentElement.lang).toBe('hi');
  });

  it("follows the account's language to a phone still in English", async () => {
    storeUser({ ...technician, language: 'hi' });
    const requests = stubFetch({
      'GET /api/health': healthy,
      'GET /api/auth/me': () => jsonResponse(200, { user: { ...technician, language: 'hi' } }),
    });
    renderApp('/purpose');

    await waitFor(() => expect(document.documentElement.lang).toBe('hi'));
    expect(localStorage.getItem(LANGUAGE_KEY)).toBe('hi');
    // The device adopts the account's choice; nothing is written back.
    expect(requests.some((r) => r.method === 'PUT')).toBe(false);
  });
});
