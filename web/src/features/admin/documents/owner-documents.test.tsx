import { I18nProvider } from '@lingui/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ToastHost } from '../../../components/ui/toast-host.js';
import { i18n } from '../../../lib/i18n.js';
import { createQueryClient } from '../../../lib/query-client.js';
import { deferred, jsonResponse, stubFetch } from '../../../test/fetch-stub.js';
import { OwnerDocumentsCard } from './index.js';

const pdf = (name: string) =>
  new Response(new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x2d]), {
    status: 200,
    headers: { 'Content-Type': 'application/pdf', 'Content-Disposition': `attachment; filename="${name}"` },
  });

function renderCard() {
  render(
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={createQueryClient()}>
        <OwnerDocumentsCard />
        <ToastHost />
      </QueryClientProvider>
    </I18nProvider>,
  );
  return screen.getByRole('region', { name: 'Product documents' });
}

const notifications = () => within(screen.getByRole('region', { name: 'Notifications' }));

describe('the owner documents card', () => {
  let saved: Array<{ name: string; href: string }>;
  beforeEach(() => {
    saved = [];
    let n = 0;
    vi.spyOn(URL, 'createObjectURL').mockImplementation(() => `blob:test/${++n}`);
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push({ name: this.download, href: this.href });
    });
  });
  afterEach(() => vi.restoreAllMocks());

  it("downloads 'Func. Reqs.' with the session cookie, under the dated name the server gives", async () => {
    const answer = deferred<Response>();
    const requests = stubFetch({ 'GET /api/download/requirements': () => answer.promise });
    const card = renderCard();
    await userEvent.click(within(card).getByRole('button', { name: 'Func. Reqs.' }));
    // Busy while the PDF is made: one download at a time.
    expect(within(card).getByRole('button', { name: 'Downloading...' })).toBeDisabled();
    expect(within(card).getByRole('button', { name: 'User Requirements Doc' })).toBeDisabled();
    answer.resolve(pdf('Functional_Requirements_2026-11-24.pdf'));
    await waitFor(() => expect(saved).toEqual([{ name: 'Functional_Requirements_2026-11-24.pdf', href: 'blob:test/1' }]));
    expect(requests).toEqual([expect.objectContaining({ method: 'GET', url: '/api/download/requirements', credentials: 'include' })]);
    expect(await within(card).findByRole('button', { name: 'Func. Reqs.' })).toBeEnabled();
  });

  it("downloads the 'User Requirements Doc', with a fallback name when the server gives none", async () => {
    stubFetch({ 'GET /api/download/user-requirements': () => new Response(new Uint8Array([1, 2, 3]), { status: 200, headers: { 'Content-Type': 'application/pdf' } }) });
    const card = renderCard();
    await userEvent.click(within(card).getByRole('button', { name: 'User Requirements Doc' }));
    await waitFor(() => expect(saved.map((s) => s.name)).toEqual(['User_Requirements.pdf']));
  });

  it("shows 'Download Failed' with the server's reason when the download is refused", async () => {
    stubFetch({ 'GET /api/download/requirements': () => jsonResponse(403, { code: 'FORBIDDEN', message: 'You do not have permission to do this' }) });
    const card = renderCard();
    await userEvent.click(within(card).getByRole('button', { name: 'Func. Reqs.' }));
    const toast = await notifications().findByRole('alert');
    expect(within(toast).getByText('Download Failed')).toBeInTheDocument();
    expect(within(toast).getByText('Failed to download document: You do not have permission to do this')).toBeInTheDocument();
    expect(saved).toEqual([]);
  });

  it("shows 'Download Failed' when the network fails", async () => {
    vi.stubGlobal('fetch', vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))));
    const card = renderCard();
    await userEvent.click(within(card).getByRole('button', { name: 'User Requirements Doc' }));
    const toast = await notifications().findByRole('alert');
    expect(within(toast).getByText('Download Failed')).toBeInTheDocument();
    expect(within(toast).getByText('Failed to download document')).toBeInTheDocument();
  });
});
