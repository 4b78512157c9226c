import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { InspectionLog } from '../../../../../common/schemas/inspection.js';
import { deferred, jsonResponse, type RecordedRequest, stubFetch } from '../../../test/fetch-stub.js';
import { renderApp } from '../../../test/render-app.js';
import { admin, storeUser } from '../../../test/users.js';

type Handler = (request: RecordedRequest) => Response | Promise<Response>;

function makeLog(n: number, overrides: Partial<InspectionLog> = {}): InspectionLog {
  const recordId = `INS-20261121-${String(n).padStart(6, '0')}`;
  return {
    id: n,
    recordId,
    date: '2026-11-21',
    type: 'CoF',
    divisionRailway: 'RTM/WR',
    section: 'RTM-NAD',
    curveNumber: String(n),
    line: 'Up',
    technicianId: 'TEC2002',
    technicianName: 'Gurpreet Singh Sandhu',
    cofValue: '0.28',
    location: 'Near End',
    station1: null,
    station2: null,
    km: '12/4',
    pole1: null,
    pole2: null,
    railwayEngineer: null,
    imageUrl: `/api/inspections/${recordId}/image`,
    thumbnailUrl: `/api/inspections/${recordId}/thumbnail`,
    fileName: `inspection_${recordId}.jpg`,
    imageHash: 'a'.repeat(64),
    imageSizeBytes: 250_000,
    imageWidth: 1920,
    imageHeight: 1080,
    photoState: 'ready',
    serviceUpdate: null,
    partCategory: null,
    partItemName: null,
    isMachineWorking: null,
    greaseDepth: null,
    latitude: 23.3315,
    longitude: 75.0367,
    locationAccuracyM: 12,
    submittedAt: '2026-11-21T06:30:00.000Z',
    ...overrides,
  };
}

const logsFrom = (first: number, count: number) => Array.from({ length: count }, (_, i) => makeLog(first + i));

/** A server holding `all` records: answers each page the way the real one does (limit, offset). */
function listServer(all: () => InspectionLog[]): Handler {
  return (request) => {
    const query = new URL(request.url, 'http://x').searchParams;
    const limit = Number(query.get('limit') ?? 50);
    const offset = Number(query.get('offset') ?? 0);
    const logs = all();
    return jsonResponse(200, { logs: logs.slice(offset, offset + limit), total: logs.length });
  };
}

function asAdmin(routes: Record<string, Handler>) {
  storeUser(admin);
  return stubFetch({
    'GET /api/health': () => jsonResponse(200, { status: 'ok', database: 'ok', version: '0.1.0' }),
    'GET /api/auth/me': () => jsonResponse(200, { user: admin }),
    'GET /api/technicians': () => jsonResponse(200, { technicians: [{ employeeId: 'TEC2002', name: 'Gurpreet Singh Sandhu' }] }),
    ...routes,
  });
}

const notifications = () => within(screen.getByRole('region', { name: 'Notifications' }));
const listRequests = (requests: RecordedRequest[]) => requests.filter((r) => r.method === 'GET' && r.url.startsWith('/api/inspections?'));
const queryOf = (request: RecordedRequest | undefined) => Object.fromEntries(new URL(request?.url ?? '', 'http://x').searchParams);
const cards = () => within(screen.getByRole('list', { name: 'Inspection records' })).getAllByRole('article');
const location = () => screen.getByTestId('location').textContent ?? '';

async function openRecords(path = '/admin?view=records-management') {
  renderApp(path);
  await screen.findByRole('heading', { level: 2, name: 'Inspection Records & Images' });
}

describe('the list', () => {
  it('shows one server page as cards with lazy thumbnails, and never asks for more than 50', async () => {
    const requests = asAdmin({
      'GET /api/inspections': listServer(() => [
        makeLog(1),
        makeLog(2, { type: 'Service', cofValue: null, serviceUpdate: 'part-broken', technicianId: 'TEC2003', technicianName: 'Meena' }),
      ]),
    });
    await openRecords();
    expect(await screen.findByText('Showing 1–2 of 2 records')).toBeInTheDocument();
    const [first, second] = cards();
    expect(within(first!).getByRole('heading', { name: 'INS-20261121-000001' })).toBeInTheDocument();
    expect(first).toHaveTextContent('CoF Value: 0.28');
    expect(first).toHaveTextContent('RTM/WR · RTM-NAD · Curve 1 · Up');
    expect(first).toHaveTextContent('Gurpreet Singh Sandhu (TEC2002)');
    expect(second).toHaveTextContent('Some part is broken');
    expect(second).toHaveTextContent('Service');
    const thumb = within(first!).getByRole('img', { name: 'Photo of INS-20261121-000001' });
    expect(thumb).toHaveAttribute('src', '/api/inspections/INS-20261121-000001/thumbnail');

    const lists = listRequests(requests);
    expect(lists.length).toBeGreaterThan(0);
    for (const request of lists) expect(Number(queryOf(request).limit)).toBeLessThanOrEqual(50);
    expect(queryOf(lists[0])).toEqual({ limit: '50', offset: '0' });
  });

  it("shows 'Image Error' on a tile whose image fails, and only there", async () => {
    asAdmin({ 'GET /api/inspections': listServer(() => logsFrom(1, 2)) });
    await openRecords();
    await screen.findByText('Showing 1–2 of 2 records');
    const [broken, fine] = cards();
    fireEvent.error(within(broken!).getByRole('img'));
    expect(within(broken!).getByText('Image Error')).toBeInTheDocument();
    expect(within(broken!).queryByRole('img')).not.toBeInTheDocument();
    expect(within(fine!).queryByText('Image Error')).not.toBeInTheDocument();
    expect(within(fine!).getByRole('img')).toBeInTheDocument();
  });

  it('flags a record whose photo the server could not decode, on its card and in its details, and only that one', async () => {
    asAdmin({ 'GET /api/inspections': listServer(() => [makeLog(1), makeLog(2, { photoState: 'undecodable' }), makeLog(3, { photoState: 'pending' })]) });
    await openRecords();
    await screen.findByText('Showing 1–3 of 3 records');
    const [ready, damaged, pending] = cards();
    const flag = 'Photo damaged: the server cannot read it. The file is kept as it was sent.';
    expect(within(damaged!).getByText(flag)).toBeInTheDocument();
    expect(within(ready!).queryByText(flag)).toBeNull();
    expect(within(pending!).queryByText(flag)).toBeNull();
    await userEvent.click(within(damaged!).getByRole('button', { name: 'Details INS-20261121-000002' }));
    expect(within(await screen.findByRole('dialog')).getByText(flag)).toBeInTheDocument();
  });

  it('says so when no record on the page has a photo, and invents nothing', async () => {
    const bare = { imageUrl: null, thumbnailUrl: null, fileName: null, imageHash: null, imageSizeBytes: null, imageWidth: null, imageHeight: null };
    asAdmin({ 'GET /api/inspections': listServer(() => [makeLog(1, bare), makeLog(2, bare)]) });
    await openRecords();
    expect(await screen.findByText('None of the records on this page has a photo.')).toBeInTheDocument();
    expect(cards()).toHaveLength(2);
    expect(screen.getAllByText('No photo')).toHaveLength(2);
    expect(screen.queryByText('Image Error')).not.toBeInTheDocument();
  });

  it('shows the empty states', async () => {
    asAdmin({ 'GET /api/inspections': listServer(() => []) });
    await openRecords();
    expect(await screen.findByText('No inspection records yet.')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Record ID'), 'NOPE');
    await userEvent.click(screen.getByRole('button', { name: 'Apply Filters' }));
    expect(await screen.findByText('No inspection records match the selected filters.')).toBeInTheDocument();
  });

  it('shows the server message when the list fails', async () => {
    asAdmin({
      'GET /api/inspections': () => jsonResponse(400, { code: 'VALIDATION_FAILED', message: 'to must be on or after from', fields: { to: 'to must be on or after from' } }),
    });
    await openRecords();
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to load inspection records: to must be on or after from');
  });
});

describe('filters and pages', () => {
  it('sends only the filters that are set, keeps them in the URL next to view, and Clear removes them', async () => {
    const requests = asAdmin({ 'GET /api/inspections': listServer(() => logsFrom(1, 3)) });
    await openRecords();
    await screen.findByText('Showing 1–3 of 3 records');
    await userEvent.type(screen.getByLabelText('Record ID'), ' 7KQ2XM ');
    await userEvent.selectOptions(screen.getByLabelText('Type'), 'CoF');
    await userEvent.selectOptions(screen.getByLabelText('Division/Railway'), 'FZR/NR');
    await userEvent.selectOptions(await screen.findByRole('option', { name: 'Gurpreet Singh Sandhu (TEC2002)' }).then(() => screen.getByLabelText('Technician')), 'TEC2002');
    await userEvent.type(screen.getByLabelText('From'), '2026-11-01');
    // Nothing is asked while the form is being filled.
    expect(listRequests(requests)).toHaveLength(1);
    await userEvent.click(screen.getByRole('button', { name: 'Apply Filters' }));

    await waitFor(() => expect(listRequests(requests)).toHaveLength(2));
    expect(queryOf(listRequests(requests)[1])).toEqual({
      limit: '50',
      offset: '0',
      q: '7KQ2XM',
      type: 'CoF',
      division: 'FZR/NR',
      technicianId: 'TEC2002',
      from: '2026-11-01',
    });
    const url = new URL(location(), 'http://x');
    expect(url.searchParams.get('view')).toBe('records-management');
    expect(url.searchParams.get('q')).toBe('7KQ2XM');
    expect(url.searchParams.has('section')).toBe(false);

    await userEvent.click(screen.getByRole('button', { name: 'Clear Filters' }));
    await waitFor(() => expect(location()).toBe('/admin?view=records-management'));
    expect(screen.getByLabelText('Record ID')).toHaveValue('');
    await waitFor(() => expect(queryOf(listRequests(requests).at(-1))).toEqual({ limit: '50', offset: '0' }));
  });

  it('folds the filters other than Record ID on small screens, unless one of them is in use', async () => {
    asAdmin({ 'GET /api/inspections': listServer(() => logsFrom(1, 1)) });
    await openRecords();
    const toggle = await screen.findByRole('button', { name: 'More Filters' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(document.getElementById('more-record-filters')).toHaveClass('hidden');
    await userEvent.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(document.getElementById('more-record-filters')).not.toHaveClass('hidden');
  });

  it('opens the folded filters when a link uses them', async () => {
    asAdmin({ 'GET /api/inspections': listServer(() => logsFrom(1, 1)) });
    await openRecords('/admin?view=records-management&type=CoF&division=RTM%2FWR');
    expect(await screen.findByRole('button', { name: 'More Filters (2 in use)' })).toHaveAttribute('aria-expanded', 'true');
  });

  it('refuses a To date before From under the field, without a request', async () => {
    const requests = asAdmin({ 'GET /api/inspections': listServer(() => logsFrom(1, 1)) });
    await openRecords();
    await screen.findByText('Showing 1–1 of 1 records');
    await userEvent.type(screen.getByLabelText('From'), '2026-11-10');
    await userEvent.type(screen.getByLabelText('To'), '2026-11-01');
    await userEvent.click(screen.getByRole('button', { name: 'Apply Filters' }));
    expect(screen.getByLabelText('To')).toHaveAccessibleDescription('To must be on or after From');
    expect(listRequests(requests)).toHaveLength(1);
  });

  it('pages with Previous and Next, 50 at a time, with the page in the URL', async () => {
    const requests = asAdmin({ 'GET /api/inspections': listServer(() => logsFrom(1, 120)) });
    await openRecords();
    expect(await screen.findByText('Showing 1–50 of 120 records')).toBeInTheDocument();
    expect(cards()).toHaveLength(50);
    // The first row loads at once; the other 47 thumbnails wait until they are scrolled to.
    const loading = cards().map((card) => within(card).getByRole('img').getAttribute('loading'));
    expect(loading.slice(0, 3)).toEqual(['eager', 'eager', 'eager']);
    expect(loading.slice(3).every((l) => l === 'lazy')).toBe(true);
    expect(screen.getByRole('button', { name: /Previous/ })).toBeDisabled();
    expect(screen.getByText('Page 1 of 3')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: /Next/ }));
    expect(await screen.findByText('Showing 51–100 of 120 records')).toBeInTheDocument();
    expect(queryOf(listRequests(requests).at(-1))).toEqual({ limit: '50', offset: '50' });
    expect(new URL(location(), 'http://x').searchParams.get('page')).toBe('2');
    expect(new URL(location(), 'http://x').searchParams.get('view')).toBe('records-management');

    await userEvent.click(screen.getByRole('button', { name: /Next/ }));
    expect(await screen.findByText('Showing 101–120 of 120 records')).toBeInTheDocument();
    expect(cards()).toHaveLength(20);
    expect(screen.getByRole('button', { name: /Next/ })).toBeDisabled();

    await userEvent.click(screen.getByRole('button', { name: /Previous/ }));
    expect(await screen.findByText('Showing 51–100 of 120 records')).toBeInTheDocument();
  });

  it('opens at the page and filters of a shared link, and a page past the end goes to the last page', async () => {
    const requests = asAdmin({ 'GET /api/inspections': listServer(() => logsFrom(1, 60)) });
    await openRecords('/admin?view=records-management&type=CoF&page=7');
    expect(await screen.findByText('Showing 51–60 of 60 records')).toBeInTheDocument();
    expect(queryOf(listRequests(requests)[0])).toEqual({ limit: '50', offset: '300', type: 'CoF' });
    expect(queryOf(listRequests(requests).at(-1))).toEqual({ limit: '50', offset: '50', type: 'CoF' });
    expect(screen.getByLabelText('Type')).toHaveValue('CoF');
  });
});

describe('selection', () => {
  it('keeps a list of record IDs; Select all takes the page, and again leaves it', async () => {
    asAdmin({ 'GET /api/inspections': listServer(() => logsFrom(1, 3)) });
    await openRecords();
    await screen.findByText('Showing 1–3 of 3 records');
    expect(screen.getByText('0 selected')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Delete Selected' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Download Selected' })).toBeDisabled();

    await userEvent.click(screen.getByRole('checkbox', { name: 'Select INS-20261121-000002' }));
    expect(screen.getByText('1 selected')).toBeInTheDocument();
    const selectAll = screen.getByRole('checkbox', { name: 'Select all' });
    expect(selectAll).not.toBeChecked();
    expect(selectAll).toHaveProperty('indeterminate', true);

    await userEvent.click(selectAll);
    expect(screen.getByText('3 selected')).toBeInTheDocument();
    for (const box of screen.getAllByRole('checkbox', { name: /^Select INS-/ })) expect(box).toBeChecked();
    expect(selectAll).toBeChecked();

    await userEvent.click(selectAll);
    expect(screen.getByText('0 selected')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select INS-20261121-000003' }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select INS-20261121-000003' }));
    expect(screen.getByText('0 selected')).toBeInTheDocument();
  });

  it('keeps the selection across pages, Select all adds only the page on screen', async () => {
    const requests = asAdmin({
      'GET /api/inspections': listServer(() => logsFrom(1, 60)),
      'POST /api/images/delete': () => jsonResponse(200, { deletedCount: 11, notFound: [] }),
    });
    await openRecords();
    await screen.findByText('Showing 1–50 of 60 records');
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select INS-20261121-000001' }));
    await userEvent.click(screen.getByRole('button', { name: /Next/ }));
    await screen.findByText('Showing 51–60 of 60 records');
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select all' }));
    expect(screen.getByText('11 selected')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Delete Selected' }));
    await userEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete Selected' }));
    await notifications().findByText('Images Deleted');
    const body: unknown = JSON.parse(requests.find((r) => r.url === '/api/images/delete')?.body ?? '{}');
    expect(body).toEqual({ imageIds: ['INS-20261121-000001', ...logsFrom(51, 10).map((l) => l.recordId)] });
  });

  it('starts a new selection when the filters change', async () => {
    asAdmin({ 'GET /api/inspections': listServer(() => logsFrom(1, 3)) });
    await openRecords();
    await screen.findByText('Showing 1–3 of 3 records');
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select INS-20261121-000001' }));
    expect(screen.getByText('1 selected')).toBeInTheDocument();
    await userEvent.selectOptions(screen.getByLabelText('Type'), 'Service');
    await userEvent.click(screen.getByRole('button', { name: 'Apply Filters' }));
    await waitFor(() => expect(location()).toContain('type=Service'));
    expect(await screen.findByText('0 selected')).toBeInTheDocument();
  });
});

describe('delete selected', () => {
  it('asks first, noting it cannot be undone; Cancel sends nothing', async () => {
    const requests = asAdmin({ 'GET /api/inspections': listServer(() => logsFrom(1, 3)) });
    await openRecords();
    await screen.findByText('Showing 1–3 of 3 records');
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select INS-20261121-000001' }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select INS-20261121-000003' }));
    await userEvent.click(screen.getByRole('button', { name: 'Delete Selected' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Delete Selected Images' });
    expect(dialog).toHaveTextContent('Delete 2 selected records and their images? This cannot be undone.');
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(requests.filter((r) => r.method === 'POST')).toHaveLength(0);
    expect(screen.getByText('2 selected')).toBeInTheDocument();
  });

  it("shows Deleting..., then 'Images Deleted' with the server's count, refreshes and forgets the deleted IDs", async () => {
    let all = logsFrom(1, 3);
    const answer = deferred<Response>();
    const requests = asAdmin({
      'GET /api/inspections': listServer(() => all),
      'POST /api/images/delete': () => answer.promise,
    });
    await openRecords();
    await screen.findByText('Showing 1–3 of 3 records');
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select INS-20261121-000001' }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select INS-20261121-000003' }));
    await userEvent.click(screen.getByRole('button', { name: 'Delete Selected' }));
    await userEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete Selected' }));

    const dialog = screen.getByRole('alertdialog');
    expect(within(dialog).getByRole('button', { name: 'Deleting...' })).toBeDisabled();
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toBeDisabled();
    const post = requests.find((r) => r.method === 'POST' && r.url === '/api/images/delete');
    expect(JSON.parse(post?.body ?? '{}')).toEqual({ imageIds: ['INS-20261121-000001', 'INS-20261121-000003'] });

    const listsBefore = listRequests(requests).length;
    all = [makeLog(2)];
    // One of the two was already gone: the toast counts what the server deleted.
    answer.resolve(jsonResponse(200, { deletedCount: 1, notFound: ['INS-20261121-000003'] }));
    const toast = await notifications().findByRole('status');
    expect(toast).toHaveTextContent('Images Deleted');
    expect(toast).toHaveTextContent('1 images deleted successfully');
    await screen.findByText('Showing 1–1 of 1 records');
    expect(listRequests(requests).length).toBeGreaterThan(listsBefore);
    expect(screen.getByText('0 selected')).toBeInTheDocument();
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
  });

  it("shows 'Delete Error' / 'Failed to delete images' with the server message", async () => {
    asAdmin({
      'GET /api/inspections': listServer(() => logsFrom(1, 2)),
      'POST /api/images/delete': () => jsonResponse(500, { code: 'INTERNAL', message: 'Something went wrong on the server' }),
    });
    await openRecords();
    await screen.findByText('Showing 1–2 of 2 records');
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select all' }));
    await userEvent.click(screen.getByRole('button', { name: 'Delete Selected' }));
    await userEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete Selected' }));
    const toast = await notifications().findByRole('alert');
    expect(within(toast).getByText('Delete Error')).toBeInTheDocument();
    expect(within(toast).getByText('Failed to delete images: Something went wrong on the server')).toBeInTheDocument();
    // Nothing was deleted, so nothing is forgotten.
    expect(screen.getByText('2 selected')).toBeInTheDocument();
  });
});

describe('one record', () => {
  it('opens the details with the full photo and every field, and deletes it after a confirmation', async () => {
    let all = logsFrom(1, 2);
    const answer = deferred<Response>();
    const requests = asAdmin({
      'GET /api/inspections': listServer(() => all),
      'DELETE /api/inspections/INS-20261121-000001': () => answer.promise,
    });
    await openRecords();
    await screen.findByText('Showing 1–2 of 2 records');
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select INS-20261121-000001' }));
    await userEvent.click(screen.getByRole('button', { name: 'Open INS-20261121-000001' }));

    const details = screen.getByRole('dialog', { name: 'INS-20261121-000001' });
    expect(within(details).getByRole('img', { name: 'Photo of INS-20261121-000001' })).toHaveAttribute(
      'src',
      '/api/inspections/INS-20261121-000001/image',
    );
    expect(within(details).getByRole('button', { name: 'Close' })).toHaveFocus();
    for (const [label, value] of [
      ['Division/Railway', 'RTM/WR'],
      ['Section', 'RTM-NAD'],
      ['CoF Value', '0.28'],
      ['Location', 'Near End'],
      ['KM', '12/4'],
      ['Technician', 'Gurpreet Singh Sandhu (TEC2002)'],
      ['Photo', '1920 × 1080'],
    ] as const) {
      expect(within(details).getByText(label, { selector: 'dt' }).nextElementSibling).toHaveTextContent(value);
    }

    await userEvent.click(within(details).getByRole('button', { name: 'Delete' }));
    const confirm = screen.getByRole('alertdialog', { name: 'Delete Record' });
    expect(confirm).toHaveTextContent('Delete inspection record INS-20261121-000001 and its photo? This cannot be undone.');
    await userEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(within(confirm).getByRole('button', { name: 'Deleting...' })).toBeDisabled();
    expect(requests.filter((r) => r.method === 'DELETE').map((r) => r.url)).toEqual(['/api/inspections/INS-20261121-000001']);

    all = [makeLog(2)];
    answer.resolve(jsonResponse(200, { recordId: 'INS-20261121-000001', deleted: true }));
    expect(await notifications().findByText('Record Deleted')).toBeInTheDocument();
    await screen.findByText('Showing 1–1 of 1 records');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(screen.getByText('0 selected')).toBeInTheDocument();
    // Focus lands on the page summary, not on the body with the deleted card.
    expect(screen.getByText('Showing 1–1 of 1 records')).toHaveFocus();
  });

  it("shows 'Image Error' for a full photo that fails, and Escape closes the details", async () => {
    asAdmin({ 'GET /api/inspections': listServer(() => logsFrom(1, 1)) });
    await openRecords();
    await screen.findByText('Showing 1–1 of 1 records');
    const opener = screen.getByRole('button', { name: 'Details INS-20261121-000001' });
    await userEvent.click(opener);
    const details = screen.getByRole('dialog');
    fireEvent.error(within(details).getByRole('img'));
    expect(within(details).getByText('Image Error')).toBeInTheDocument();
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(opener).toHaveFocus();
  });

  it("asks before deleting from a card; a failure shows 'Delete Error' with the server message and drops a record already gone", async () => {
    let all = logsFrom(1, 2);
    asAdmin({
      'GET /api/inspections': listServer(() => all),
      'DELETE /api/inspections/INS-20261121-000002': () => {
        all = [makeLog(1)];
        return jsonResponse(404, { code: 'NOT_FOUND', message: 'Inspection record not found' });
      },
    });
    await openRecords();
    await screen.findByText('Showing 1–2 of 2 records');
    await userEvent.click(screen.getByRole('button', { name: 'Delete INS-20261121-000002' }));
    await userEvent.click(within(screen.getByRole('alertdialog', { name: 'Delete Record' })).getByRole('button', { name: 'Delete' }));
    const toast = await notifications().findByRole('alert');
    expect(within(toast).getByText('Delete Error')).toBeInTheDocument();
    expect(within(toast).getByText('Failed to delete inspection record: Inspection record not found')).toBeInTheDocument();
    await screen.findByText('Showing 1–1 of 1 records');
  });
});

describe('downloads', () => {
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

  const file = (type: string, name: string) =>
    new Response(new Uint8Array([0x50, 0x4b, 3, 4]), { status: 200, headers: { 'Content-Type': type, 'Content-Disposition': `attachment; filename="${name}"` } });

  it('downloads one photo under the name the server gives', async () => {
    const requests = asAdmin({
      'GET /api/inspections': listServer(() => logsFrom(1, 1)),
      'GET /api/image/download/INS-20261121-000001': () => file('image/jpeg', 'inspection_INS-20261121-000001.jpg'),
    });
    await openRecords();
    await screen.findByText('Showing 1–1 of 1 records');
    await userEvent.click(screen.getByRole('button', { name: 'Download INS-20261121-000001' }));
    await waitFor(() => expect(saved).toEqual([{ name: 'inspection_INS-20261121-000001.jpg', href: 'blob:test/1' }]));
    expect(requests.some((r) => r.method === 'GET' && r.url === '/api/image/download/INS-20261121-000001')).toBe(true);
  });

  it('downloads the selection as one zip named with the count', async () => {
    const answer = deferred<Response>();
    const requests = asAdmin({
      'GET /api/inspections': listServer(() => logsFrom(1, 3)),
      'POST /api/images/download': () => answer.promise,
    });
    await openRecords();
    await screen.findByText('Showing 1–3 of 3 records');
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select all' }));
    await userEvent.click(screen.getByRole('button', { name: 'Download Selected' }));
    expect(screen.getByRole('button', { name: 'Downloading...' })).toBeDisabled();
    expect(JSON.parse(requests.find((r) => r.url === '/api/images/download')?.body ?? '{}')).toEqual({
      imageIds: logsFrom(1, 3).map((l) => l.recordId),
    });
    answer.resolve(file('application/zip', 'inspection-images-3.zip'));
    await waitFor(() => expect(saved.map((s) => s.name)).toEqual(['inspection-images-3.zip']));
    expect(await screen.findByRole('button', { name: 'Download Selected' })).toBeEnabled();
  });

  it("shows 'Download Failed' / 'Failed to download image' with the server message", async () => {
    asAdmin({
      'GET /api/inspections': listServer(() => logsFrom(1, 1)),
      'GET /api/image/download/INS-20261121-000001': () => jsonResponse(404, { code: 'NOT_FOUND', message: 'Image not found' }),
    });
    await openRecords();
    await screen.findByText('Showing 1–1 of 1 records');
    await userEvent.click(screen.getByRole('button', { name: 'Open INS-20261121-000001' }));
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Download' }));
    const toast = await notifications().findByRole('alert');
    expect(within(toast).getByText('Download Failed')).toBeInTheDocument();
    expect(within(toast).getByText('Failed to download image: Image not found')).toBeInTheDocument();
    expect(saved).toEqual([]);
  });
});
