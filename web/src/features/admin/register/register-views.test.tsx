import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Curve } from '../../../../../common/schemas/curve.js';
import type { Station } from '../../../../../common/schemas/reference.js';
import { deferred, jsonResponse, type RecordedRequest, stubFetch } from '../../../test/fetch-stub.js';
import { renderApp } from '../../../test/render-app.js';
import { admin, storeUser } from '../../../test/users.js';

type Handler = (request: RecordedRequest) => Response | Promise<Response>;

function makeCurve(n: number, overrides: Partial<Curve> = {}): Curve {
  return {
    id: n,
    no: n,
    hkmCode: 1000 + n,
    divisionRailway: 'RTM/WR',
    section: 'BEC Bypass',
    curveNumber: `${n}/3`,
    line: 'Up',
    kmFrom: 660,
    metFrom: 545,
    kmTo: 661,
    metTo: 365,
    length: 820,
    station1: 'Ratlam Jn',
    station2: 'Bangrod',
    degree: '0.50',
    den: null,
    aen: null,
    sse: 'SSE/P.Way/RTM',
    comments: null,
    createdAt: '2026-11-01T00:00:00.000Z',
    updatedAt: '2026-11-01T00:00:00.000Z',
    ...overrides,
  };
}

const station: Station = { id: 7, no: 3, stationName: 'Runija', stationCode: 'RNJ', section: 'RTM-NAD', divisionRailway: 'RTM/WR' };

function asAdmin(routes: Record<string, Handler>) {
  storeUser(admin);
  return stubFetch({
    'GET /api/health': () => jsonResponse(200, { status: 'ok', database: 'ok', version: '0.1.0' }),
    'GET /api/auth/me': () => jsonResponse(200, { user: admin }),
    'GET /api/register-filters': () =>
      jsonResponse(200, { sections: [{ divisionRailway: 'RTM/WR', section: 'BEC Bypass' }], sses: ['SSE/P.Way/RTM'] }),
    ...routes,
  });
}

/** A server holding `count` curves, answering pages as the real one does (limit, offset). */
function curveServer(count: number): Handler {
  return (request) => {
    const query = new URL(request.url, 'http://x').searchParams;
    const limit = Number(query.get('limit'));
    const offset = Number(query.get('offset'));
    const curves = Array.from({ length: count }, (_, i) => makeCurve(i + 1)).slice(offset, offset + limit);
    return jsonResponse(200, { curves, total: count });
  };
}

const notifications = () => within(screen.getByRole('region', { name: 'Notifications' }));
const queryOf = (request: RecordedRequest | undefined) => Object.fromEntries(new URL(request?.url ?? '', 'http://x').searchParams);

describe('curve details', () => {
  it('shows the first 20 of the matches with the spec note, and reaches the rest page by page', async () => {
    const requests = asAdmin({ 'GET /api/consolidated-curves': curveServer(45) });
    renderApp('/admin?view=curve-details');
    expect(await screen.findByText('Showing first 20 of 45 curve records')).toBeInTheDocument();
    expect(within(screen.getByRole('list', { name: 'Curve records' })).getAllByRole('article')).toHaveLength(20);
    await userEvent.click(screen.getAllByRole('button', { name: 'Next' })[0]!);
    expect(await screen.findByText('Showing 21–40 of 45 curve records')).toBeInTheDocument();
    await userEvent.click(screen.getAllByRole('button', { name: 'Next' })[0]!);
    expect(await screen.findByText('Showing 41–45 of 45 curve records')).toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: 'Next' })[0]).toBeDisabled();
    const pages = requests.filter((r) => r.url.startsWith('/api/consolidated-curves?')).map(queryOf);
    expect(pages.map((q) => [q.limit, q.offset])).toEqual([
      ['20', '0'],
      ['20', '20'],
      ['20', '40'],
    ]);
  });

  it('sends the filters to the server and says when nothing matches', async () => {
    const requests = asAdmin({ 'GET /api/consolidated-curves': () => jsonResponse(200, { curves: [], total: 0 }) });
    renderApp('/admin?view=curve-details');
    expect(await screen.findByText('No curves match the selected filters')).toBeInTheDocument();
    await userEvent.selectOptions(screen.getByLabelText('Division'), 'RTM/WR');
    await userEvent.selectOptions(await screen.findByLabelText('SSE'), 'SSE/P.Way/RTM');
    await userEvent.type(screen.getByRole('searchbox'), '660/10{Enter}');
    await waitFor(() =>
      expect(queryOf(requests.filter((r) => r.url.startsWith('/api/consolidated-curves?')).at(-1))).toMatchObject({
        division: 'RTM/WR',
        sse: 'SSE/P.Way/RTM',
        q: '660/10',
        offset: '0',
      }),
    );
  });

  it('adds a curve: the server field errors stand under their inputs, then Creating... and Curve Created', async () => {
    const pending = deferred<Response>();
    let posts = 0;
    asAdmin({
      'GET /api/consolidated-curves': curveServer(3),
      'POST /api/consolidated-curves': (request) => {
        posts += 1;
        if (posts === 1) {
          return jsonResponse(400, {
            code: 'VALIDATION_FAILED',
            message: 'section: Section is required',
            fields: { section: 'Section is required', curveNumber: 'Curve number is required' },
          });
        }
        expect(JSON.parse(request.body ?? '{}')).toMatchObject({ no: 9, section: 'BEC Bypass', curveNumber: '9/1', line: 'Down', hkmCode: null, sse: null });
        return pending.promise;
      },
    });
    renderApp('/admin?view=curve-details');
    await userEvent.click(await screen.findByRole('button', { name: 'Add New Curve' }));
    const dialog = screen.getByRole('dialog', { name: 'Add New Curve' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create Curve' }));
    expect(await within(dialog).findByText('Section is required')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Section *')).toHaveAttribute('aria-invalid', 'true');
    expect(notifications().getByRole('alert')).toHaveTextContent('Failed to create curve: section: Section is required');

    await userEvent.type(within(dialog).getByLabelText('No. *'), '9');
    await userEvent.selectOptions(within(dialog).getByLabelText('Division/Railway *'), 'RTM/WR');
    await userEvent.type(within(dialog).getByLabelText('Section *'), 'BEC Bypass');
    await userEvent.type(within(dialog).getByLabelText('Curve Number *'), '9/1');
    await userEvent.selectOptions(within(dialog).getByLabelText('Line *'), 'Down');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create Curve' }));
    expect(await within(dialog).findByRole('button', { name: 'Creating...' })).toBeDisabled();
    pending.resolve(jsonResponse(201, { curve: makeCurve(9, { curveNumber: '9/1', line: 'Down' }) }));
    expect(await notifications().findByText('Curve Created')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('edits a curve with Saving..., sending every field to the path of its old key, URL-encoded', async () => {
    const curve = makeCurve(1, { section: 'BEC Bypass/X', curveNumber: '660/10-661/7' });
    const pending = deferred<Response>();
    let body: Record<string, unknown> = {};
    asAdmin({
      'GET /api/consolidated-curves': () => jsonResponse(200, { curves: [curve], total: 1 }),
      'PUT /api/admin/curves/BEC%20Bypass%2FX/660%2F10-661%2F7/Up': (request) => {
        body = JSON.parse(request.body ?? '{}') as Record<string, unknown>;
        return pending.promise;
      },
    });
    renderApp('/admin?view=curve-details');
    expect(await screen.findByText('Showing 1 curve record')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Edit curve 660/10-661/7 Up' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit Curve Details' });
    await userEvent.clear(within(dialog).getByLabelText('SSE'));
    await userEvent.selectOptions(within(dialog).getByLabelText('Line *'), 'Down');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    expect(await within(dialog).findByRole('button', { name: 'Saving...' })).toBeDisabled();
    expect(body).toMatchObject({ line: 'Down', sse: null, kmFrom: 660, degree: 0.5, section: 'BEC Bypass/X', hkmCode: 1001 });
    pending.resolve(jsonResponse(200, { curve: { ...curve, line: 'Down', sse: null } }));
    expect(await notifications().findByText('Curve Updated')).toBeInTheDocument();
  });

  it('asks before deleting a curve in the spec words, shows Deleting..., then Curve Deleted', async () => {
    const curve = makeCurve(4, { section: 'RTM-NAD', curveNumber: '12' });
    const pending = deferred<Response>();
    asAdmin({
      'GET /api/consolidated-curves': () => jsonResponse(200, { curves: [curve], total: 1 }),
      'DELETE /api/consolidated-curves/RTM-NAD/12/Up': () => pending.promise,
    });
    renderApp('/admin?view=curve-details');
    await userEvent.click(await screen.findByRole('button', { name: 'Delete curve 12 Up' }));
    const confirm = screen.getByRole('alertdialog');
    expect(confirm).toHaveTextContent('Are you sure you want to delete curve 12 in section RTM-NAD?');
    await userEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await within(confirm).findByRole('button', { name: 'Deleting...' })).toBeDisabled();
    pending.resolve(jsonResponse(200, { deleted: true, curve }));
    expect(await notifications().findByText('Curve Deleted')).toBeInTheDocument();
  });

  it('goes back a page when the last curve of the last page is deleted', async () => {
    let count = 41;
    asAdmin({
      'GET /api/consolidated-curves': (request) => curveServer(count)(request),
      'DELETE /api/consolidated-curves/BEC%20Bypass/41%2F3/Up': () => {
        count = 40;
        return jsonResponse(200, { deleted: true, curve: makeCurve(41) });
      },
    });
    renderApp('/admin?view=curve-details');
    await screen.findByText('Showing first 20 of 41 curve records');
    await userEvent.click(screen.getAllByRole('button', { name: 'Next' })[0]!);
    await screen.findByText('Showing 21–40 of 41 curve records');
    await userEvent.click(screen.getAllByRole('button', { name: 'Next' })[0]!);
    await screen.findByText('Showing 41 of 41 curve records');
    await userEvent.click(screen.getByRole('button', { name: 'Delete curve 41/3 Up' }));
    await userEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Showing 21–40 of 40 curve records')).toBeInTheDocument();
  });

  it('says when a delete failed, with the server reason', async () => {
    const curve = makeCurve(4, { section: 'RTM-NAD', curveNumber: '12' });
    asAdmin({
      'GET /api/consolidated-curves': () => jsonResponse(200, { curves: [curve], total: 1 }),
      'DELETE /api/consolidated-curves/RTM-NAD/12/Up': () => jsonResponse(404, { code: 'NOT_FOUND', message: 'No curve 12 (Up) in section RTM-NAD' }),
    });
    renderApp('/admin?view=curve-details');
    await userEvent.click(await screen.findByRole('button', { name: 'Delete curve 12 Up' }));
    await userEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    const alert = await notifications().findByRole('alert');
    expect(alert).toHaveTextContent('Delete Error');
    expect(alert).toHaveTextContent('Failed to delete curve: No curve 12 (Up) in section RTM-NAD');
  });
});

describe('station details', () => {
  it('edits a station by its id, shows a 409 under the code, and deletes with the spec question', async () => {
    asAdmin({
      'GET /api/admin/stations': () => jsonResponse(200, { stations: [station], total: 1 }),
      'PUT /api/admin/stations/7': () =>
        jsonResponse(409, {
          code: 'CONFLICT',
          message: 'Station code RTM already exists in section RTM-NAD',
          fields: { stationCode: 'Station code RTM already exists in section RTM-NAD' },
        }),
      'DELETE /api/stations/7': () => jsonResponse(200, { deleted: true, station }),
    });
    renderApp('/admin?view=station-details');
    expect(await screen.findByText('Showing 1 station')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Edit station Runija' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit Station Details' });
    await userEvent.clear(within(dialog).getByLabelText('Station Code *'));
    await userEvent.type(within(dialog).getByLabelText('Station Code *'), 'RTM');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    expect(await within(dialog).findByText('Station code RTM already exists in section RTM-NAD')).toBeInTheDocument();
    expect(notifications().getByRole('alert')).toHaveTextContent('Failed to update station');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));

    await userEvent.click(screen.getByRole('button', { name: 'Delete station Runija' }));
    expect(screen.getByRole('alertdialog')).toHaveTextContent('Are you sure you want to delete station Runija at No. 3?');
    await userEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    expect(await notifications().findByText('Station Deleted')).toBeInTheDocument();
  });
});

describe('register sheets on data-management', () => {
  const result = (overrides: Record<string, unknown> = {}) => ({
    type: 'stations',
    dryRun: true,
    valid: true,
    count: 3,
    added: 2,
    changed: 1,
    unchanged: 0,
    unknownColumns: [],
    rowErrors: [],
    ...overrides,
  });

  it('checks the file first (Importing...), shows every bad row, and imports nothing while one is bad', async () => {
    const pending = deferred<Response>();
    const requests = asAdmin({
      'GET /api/data-summary': () => jsonResponse(200, { curveRecords: 1, stations: 1, inspectionRecords: 1 }),
      'POST /api/import-excel': () => pending.promise,
    });
    const { container } = renderApp('/admin?view=data-management');
    const button = await screen.findByRole('button', { name: 'Import Station Data' });
    const input = container.querySelector<HTMLInputElement>('input[type=file]');
    await userEvent.click(button);
    await userEvent.upload(input!, new File(['No,Station Name\n'], 'stations.csv', { type: 'text/csv' }));
    expect(await screen.findByRole('button', { name: 'Importing...' })).toBeDisabled();
    pending.resolve(
      jsonResponse(200, result({ valid: false, count: 2, unknownColumns: ['Remarks'], rowErrors: [{ row: 4, column: 'Division/Railway', message: 'Division/Railway must be one of RTM/WR' }] })),
    );
    const preview = await screen.findByRole('dialog', { name: 'Import preview' });
    expect(within(preview).getByRole('alert')).toHaveTextContent('1 row is not valid');
    expect(within(preview).getByText('Remarks')).toBeInTheDocument();
    const row = within(preview).getByRole('row', { name: /Division\/Railway must be one of/ });
    expect(within(row).getAllByRole('cell').map((c) => c.textContent)).toEqual(['4', 'Division/Railway', 'Division/Railway must be one of RTM/WR']);
    expect(within(preview).getByRole('button', { name: 'Import 2 records' })).toBeDisabled();
    const imports = requests.filter((r) => r.url.startsWith('/api/import-excel'));
    expect(imports.map((r) => r.url)).toEqual(['/api/import-excel?dryRun=true']);
  });

  it('imports after the preview: Import Successful, Imported N records successfully', async () => {
    const requests = asAdmin({
      'GET /api/data-summary': () => jsonResponse(200, { curveRecords: 1, stations: 1, inspectionRecords: 1 }),
      'POST /api/import-excel': (request) => jsonResponse(200, result({ dryRun: request.url.includes('dryRun') })),
    });
    const { container } = renderApp('/admin?view=data-management');
    await userEvent.click(await screen.findByRole('button', { name: 'Import Curve Data' }));
    await userEvent.upload(container.querySelector<HTMLInputElement>('input[type=file]')!, new File(['x'], 'curves.csv', { type: 'text/csv' }));
    const preview = await screen.findByRole('dialog', { name: 'Import preview' });
    await userEvent.click(within(preview).getByRole('button', { name: 'Import 3 records' }));
    expect(await notifications().findByText('Import Successful')).toBeInTheDocument();
    expect(notifications().getByText('Imported 3 records successfully')).toBeInTheDocument();
    expect(requests.filter((r) => r.url.startsWith('/api/import-excel')).map((r) => r.url)).toEqual([
      '/api/import-excel?dryRun=true',
      '/api/import-excel',
    ]);
  });

  it('says Import Failed when the server refuses the file, and Export failed when an export fails', async () => {
    asAdmin({
      'GET /api/data-summary': () => jsonResponse(200, { curveRecords: 1, stations: 1, inspectionRecords: 1 }),
      'POST /api/import-excel': () => jsonResponse(400, { code: 'IMPORT_FILE_INVALID', message: 'The first row must name the columns Section' }),
      'GET /api/export/curves': () => jsonResponse(500, { code: 'INTERNAL', message: 'Something went wrong on the server' }),
    });
    const { container } = renderApp('/admin?view=data-management');
    await userEvent.click(await screen.findByRole('button', { name: 'Import Station Data' }));
    await userEvent.upload(container.querySelector<HTMLInputElement>('input[type=file]')!, new File(['x'], 's.csv', { type: 'text/csv' }));
    const alert = await notifications().findByRole('alert');
    expect(alert).toHaveTextContent('Import Failed');
    expect(alert).toHaveTextContent('Failed to import Excel file: The first row must name the columns Section');
    await userEvent.click(screen.getByRole('button', { name: 'Export Curves' }));
    expect(await screen.findByText('Export failed. Please try again.')).toHaveAttribute('role', 'alert');
  });
});
