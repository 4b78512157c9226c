import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { onlineManager, QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { referenceCache } from '../../lib/reference-cache.js';
import { REFERENCE_WARMED_AT_KEY } from '../../lib/storage-keys.js';
import { renderApp } from '../../test/render-app.js';
import { CURVES_URL } from './api/reference-data.js';
import { warmReferenceData } from './api/warm-reference-data.js';
import { CURVES, PART_CATEGORIES, scheduleFor, signedInWithReferenceData, STORED_SERVICE_ENTRY, storeEntry } from './entry/test-fixtures.js';
import { jsonResponse } from '../../test/fetch-stub.js';

afterEach(() => {
  vi.restoreAllMocks();
  // React Query's online manager is one per page: give the next test its network back.
  onlineManager.setOnline(true);
});

const field = (label: string) => screen.getByLabelText(label);
const noNetwork = () => Promise.reject(new TypeError('Failed to fetch'));
const optionTexts = (label: string) => {
  const element = screen.getByLabelText(label);
  if (!(element instanceof HTMLSelectElement)) throw new Error(`${label} is not a select`);
  return [...element.options].filter((o) => o.value !== '').map((o) => o.textContent);
};

/** The same signed-in app, but no reference request gets through and the phone knows it is offline. */
function offline() {
  const requests = signedInWithReferenceData({ curves: noNetwork, schedule: noNetwork, stations: noNetwork, categories: noNetwork, parts: noNetwork });
  vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
  return requests;
}

/** The network goes while the app runs: React Query hears it and pauses queries that need a network. */
function loseNetwork() {
  act(() => {
    window.dispatchEvent(new Event('offline'));
  });
}

describe('reference data with no network', () => {
  it('fills the entry form from the copy kept on the device, HKM quick select and stations included', async () => {
    // Online once: curves and the stations of RTM-NAD are kept as they arrive.
    signedInWithReferenceData();
    const first = renderApp('/data-entry');
    await waitFor(() => expect(field('HKM Code')).toBeEnabled());
    await userEvent.selectOptions(field('HKM Code'), '1010');
    await waitFor(() => expect(field('Station 1')).toHaveValue('Ratlam'));
    await waitFor(async () => expect(await referenceCache().read('/api/stations?section=RTM-NAD')).toBeDefined());
    first.unmount();

    const requests = offline();
    renderApp('/purpose');
    loseNetwork();
    await userEvent.click(await screen.findByRole('link', { name: /Service Inspection/ }));
    await waitFor(() => expect(field('HKM Code')).toBeEnabled());
    // The network was asked first, and failed.
    expect(requests.some((r) => r.url === CURVES_URL)).toBe(true);
    await userEvent.selectOptions(field('HKM Code'), '1010');
    expect(field('Curve Number')).toHaveValue('12');
    await waitFor(() => expect(field('Station 1')).toHaveValue('Ratlam'));
    expect(field('Station 2')).toHaveValue('Naguda');
    expect(screen.queryByText('Could not load curves. Check your connection and try again.')).not.toBeInTheDocument();
  });

  it("shows each curve's due state and the due list from the copy kept on the device", async () => {
    signedInWithReferenceData({ schedule: () => jsonResponse(200, scheduleFor(CURVES)) });
    const first = renderApp('/data-entry');
    await waitFor(() => expect(optionTexts('HKM Code')).toContain('998 · Curve 15 · Down · Service overdue 6 d'));
    await waitFor(async () => expect(await referenceCache().read('/api/schedule?limit=1000')).toBeDefined());
    first.unmount();

    offline();
    renderApp('/purpose');
    loseNetwork();
    const dueList = await screen.findByRole('list', { name: 'Curves due' });
    const mostOverdue = within(dueList).getAllByRole('link')[0];
    // The most overdue first: curve 15 is 6 days late; the never-visited curves follow.
    expect(mostOverdue).toHaveTextContent('Curve 15 · Down · RTM-NAD');
    expect(mostOverdue).toHaveTextContent('Service overdue 6 d');
    // The section's other curves follow, but not the one without a machine.
    expect(within(dueList).getAllByRole('link').length).toBeGreaterThan(1);
    expect(within(dueList).queryByText(/^Curve 20 /)).not.toBeInTheDocument();
    await userEvent.click(mostOverdue as HTMLElement);
    await waitFor(() => expect(field('Curve Number')).toHaveValue('15'));
    expect(field('Section')).toHaveValue('RTM-NAD');
    expect(field('Line')).toHaveValue('Down');
    await waitFor(() => expect(field('HKM Code')).toHaveValue('998'));
    expect(screen.getByText('Service overdue 6 d')).toBeInTheDocument();
    expect(optionTexts('Curve Number')).toContain('15 · Down · Service overdue 6 d');
    // A curve without a machine says so in the picker (it is not on the due list, above).
    expect(optionTexts('Curve Number')).toContain('20 · Up · No machine');
  });

  it('says it could not load the curves when nothing was kept yet', async () => {
    offline();
    renderApp('/data-entry');
    expect(await screen.findByText('Could not load curves. Check your connection and try again.')).toBeInTheDocument();
  });

  it('prefers a fresh answer to the kept one, and keeps the fresh one', async () => {
    await referenceCache().write(CURVES_URL, { curves: [], total: 0 });
    signedInWithReferenceData();
    renderApp('/data-entry');
    await waitFor(() => expect(field('HKM Code')).toBeEnabled());
    expect(optionTexts('Division/Railway').length).toBeGreaterThan(0);
    await waitFor(async () => expect(await referenceCache().read(CURVES_URL)).toMatchObject({ total: CURVES.length }));
  });
});

describe('copying the reference data to the device', () => {
  it('fetches the curves, the part categories and their parts, then the stations of every section, one at a time', async () => {
    const requests = signedInWithReferenceData();
    await warmReferenceData(new QueryClient(), { divisionAccess: null }, new AbortController().signal);

    expect(requests.map((r) => r.url)).toEqual([
      CURVES_URL,
      '/api/schedule?limit=1000',
      '/api/actions?state=open&limit=500',
      '/api/machine-parts/categories',
      ...PART_CATEGORIES.map((c) => `/api/machine-parts?category=${c}`),
      ...['BEC Bypass', 'BRC-ANND', 'FZR-BTI', 'RTM-NAD'].map((s) => `/api/stations?section=${encodeURIComponent(s)}`),
    ]);
    expect(await referenceCache().read('/api/stations?section=FZR-BTI')).toMatchObject({ stations: [{ stationCode: 'BTI' }] });
    // The open follow-up actions are kept too: they head the due list offline.
    expect(await referenceCache().read('/api/actions?state=open&limit=500')).toMatchObject({ total: 0, actions: [] });
    expect(Number(localStorage.getItem(REFERENCE_WARMED_AT_KEY))).toBeGreaterThan(0);
  });

  it("copies only the stations of the technician's own division when they have one", async () => {
    const requests = signedInWithReferenceData();
    await warmReferenceData(new QueryClient(), { divisionAccess: 'FZR/NR' }, new AbortController().signal);
    expect(requests.filter((r) => r.url.startsWith('/api/stations')).map((r) => r.url)).toEqual(['/api/stations?section=FZR-BTI']);
  });

  it('stops when the network goes, and does not count as a full copy', async () => {
    const requests = signedInWithReferenceData({ categories: noNetwork });
    await warmReferenceData(new QueryClient(), { divisionAccess: null }, new AbortController().signal);
    expect(requests.map((r) => r.url)).toEqual([CURVES_URL, '/api/schedule?limit=1000', '/api/actions?state=open&limit=500', '/api/machine-parts/categories']);
    expect(localStorage.getItem(REFERENCE_WARMED_AT_KEY)).toBeNull();
  });

  it('lets the service details list parts offline after the copy, for a technician who never opened them', async () => {
    signedInWithReferenceData();
    await warmReferenceData(new QueryClient(), { divisionAccess: null }, new AbortController().signal);

    storeEntry(STORED_SERVICE_ENTRY);
    offline();
    renderApp('/service-details');
    loseNetwork();
    await userEvent.click(await screen.findByRole('radio', { name: 'Some part is broken' }));
    await waitFor(() => expect(optionTexts('Category')).toEqual(PART_CATEGORIES));
    await userEvent.selectOptions(field('Category'), 'Pump');
    await waitFor(() => expect(optionTexts('Item Name')).toEqual(['Pump motor', 'Pump seal']));
  });

  it('runs in the background a little after the app starts for a signed-in technician', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const requests = signedInWithReferenceData();
    renderApp('/purpose', { warmReferenceData: true });
    await screen.findByRole('heading', { name: 'Select Purpose' });
    expect(requests.some((r) => r.url.startsWith('/api/stations'))).toBe(false);

    await act(() => vi.advanceTimersByTimeAsync(2_000));
    await waitFor(() => expect(requests.filter((r) => r.url.startsWith('/api/stations'))).toHaveLength(4));
  });

  it('does not copy again at app start within the hour after a full copy', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    localStorage.setItem(REFERENCE_WARMED_AT_KEY, String(Date.now() - 60_000));
    const requests = signedInWithReferenceData();
    renderApp('/purpose', { warmReferenceData: true });
    await screen.findByRole('heading', { name: 'Select Purpose' });
    await act(() => vi.advanceTimersByTimeAsync(3_000));
    expect(requests.filter((r) => r.url.startsWith('/api/stations') || r.url === CURVES_URL)).toEqual([]);
  });
});

