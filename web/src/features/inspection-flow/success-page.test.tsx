import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { SUBMISSION_RESULT_KEY } from '../../lib/storage-keys.js';
import { jsonResponse, stubFetch } from '../../test/fetch-stub.js';
import { renderScreen } from '../../test/render-app.js';
import { storeUser, technician } from '../../test/users.js';

async function openSuccess(result: unknown = { status: 'completed', recordId: 'INS-2025-0042', fileName: 'INS-2025-0042.jpg' }) {
  storeUser(technician);
  sessionStorage.setItem(SUBMISSION_RESULT_KEY, JSON.stringify(result));
  stubFetch({
    'GET /api/health': () => jsonResponse(200, { status: 'ok', database: 'ok', version: '0.1.0' }),
    'GET /api/auth/me': () => jsonResponse(200, { user: technician }),
  });
  await renderScreen('/success');
}

const term = (name: string) => screen.getByText(name, { selector: 'dt' });

describe('Success screen', () => {
  it("shows the record ID, the file name and the upload status 'Completed'", async () => {
    await openSuccess();
    expect(term('Record ID').nextElementSibling).toHaveTextContent('INS-2025-0042');
    expect(term('File Name').nextElementSibling).toHaveTextContent('INS-2025-0042.jpg');
    expect(term('Upload Status').nextElementSibling).toHaveTextContent('Completed');
  });

  it('reads a result stored without a status (before the outbox) as completed', async () => {
    await openSuccess({ recordId: 'INS-2025-0041', fileName: 'INS-2025-0041.jpg' });
    expect(term('Record ID').nextElementSibling).toHaveTextContent('INS-2025-0041');
    expect(term('Upload Status').nextElementSibling).toHaveTextContent('Completed');
  });

  it("shows 'Queued' and the local ID when the record waits in the outbox, and no record ID", async () => {
    await openSuccess({ status: 'queued', localId: 'LOCAL-6F1C2A4E', recordId: null, fileName: null });
    expect(screen.getByRole('heading', { name: 'Inspection Saved on This Phone' })).toBeInTheDocument();
    expect(term('Local ID').nextElementSibling).toHaveTextContent('LOCAL-6F1C2A4E');
    expect(term('Upload Status').nextElementSibling).toHaveTextContent('Queued');
    expect(screen.queryByText('Record ID', { selector: 'dt' })).not.toBeInTheDocument();
    expect(screen.queryByText('Completed')).not.toBeInTheDocument();
  });

  it.each(['New Inspection', 'Return to Home'])("'%s' clears the stored result and goes to /purpose", async (name) => {
    await openSuccess();
    await userEvent.click(screen.getByRole('button', { name }));
    expect(await screen.findByRole('heading', { name: 'Select Purpose' })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/purpose$/));
    expect(sessionStorage.getItem(SUBMISSION_RESULT_KEY)).toBeNull();
  });
});
