import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { deferred, jsonResponse } from '../../test/fetch-stub.js';
import { renderApp } from '../../test/render-app.js';
import {
  signedInWithReferenceData,
  STORED_SERVICE_ENTRY,
  storedEntry,
  storeEntry,
} from './entry/test-fixtures.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const field = (label: string) => screen.getByLabelText(label);
const select = (label: string): HTMLSelectElement => {
  const element = screen.getByLabelText(label);
  if (!(element instanceof HTMLSelectElement)) throw new Error(`${label} is not a select`);
  return element;
};
const optionTexts = (label: string) =>
  [...select(label).options].filter((o) => o.value !== '').map((o) => o.textContent);
const location = () => screen.getByTestId('location');

/** Opens the form and waits until the curve list has arrived. */
async function openForm(path = '/data-entry') {
  const requests = signedInWithReferenceData();
  renderApp(path);
  await waitFor(() => expect(field('HKM Code')).toBeEnabled());
  return { requests, user: userEvent.setup() };
}

async function chooseCurveByHand(user: ReturnType<typeof userEvent.setup>) {
  await user.selectOptions(field('Division/Railway'), 'RTM/WR');
  await user.selectOptions(field('Section'), 'RTM-NAD');
  await user.selectOptions(field('Curve Number'), '15');
}

describe('data entry: steps, fields and buttons', () => {
  it("is Service by default: 'Step 1 of 4' and 'Log Service Details', no CoF fields", async () => {
    await openForm('/data-entry');
    expect(screen.getByText('Step 1 of 4')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Log Service Details' })).toBeInTheDocument();
    for (const label of ['CoF Value', 'Location', 'KM', 'Pole 1', 'Pole 2']) {
      expect(screen.queryByLabelText(label)).not.toBeInTheDocument();
    }
  });

  it("shows 'Step 1 of 3', 'Continue to Camera' and the CoF-only fields for CoF", async () => {
    await openForm('/data-entry?type=CoF');
    expect(screen.getByText('Step 1 of 3')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Continue to Camera' })).toBeInTheDocument();
    expect(field('CoF Value')).toHaveValue('0.');
    expect(field('CoF Value')).toHaveAttribute('inputmode', 'decimal');
    expect(optionTexts('Location')).toEqual(['Far End', 'Near End']);
    for (const label of ['KM', 'Pole 1', 'Pole 2']) expect(field(label)).toHaveAttribute('type', 'text');
  });

  it("fills Date with today's local date, read-only", async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(2025, 6, 9, 23, 30));
    await openForm();
    expect(field('Date')).toHaveValue('2025-07-09');
    expect(field('Date')).toHaveAttribute('readonly');
  });

  it('offers the five divisions, and Up, Down and Single as lines', async () => {
    await openForm();
    expect(optionTexts('Division/Railway')).toEqual(['RTM/WR', 'FZR/NR', 'BRC/WR', 'NDLS/NR', 'JBP/WCR']);
    expect(optionTexts('Line')).toEqual(['Up', 'Down', 'Single']);
  });

  it("keeps Section disabled until a division, then offers that division's sections", async () => {
    const { user } = await openForm();
    expect(field('Section')).toBeDisabled();
    await user.selectOptions(field('Division/Railway'), 'RTM/WR');
    expect(field('Section')).toBeEnabled();
    expect(optionTexts('Section')).toEqual(['BEC Bypass', 'RTM-NAD']);
  });

  it("keeps Curve Number disabled until a section, then offers that section's curves", async () => {
    const { user } = await openForm();
    await user.selectOptions(field('Division/Railway'), 'RTM/WR');
    expect(field('Curve Number')).toBeDisabled();
    await user.selectOptions(field('Section'), 'RTM-NAD');
    expect(field('Curve Number')).toBeEnabled();
    expect(optionTexts('Curve Number')).toEqual(['7 · Up', '12 · Up/Down', '15 · Down', '20 · Up']);
  });

  it('shows the SSE picker only once division and section are chosen', async () => {
    const { user } = await openForm();
    expect(screen.queryByLabelText('SSE (Railway Engineer)')).not.toBeInTheDocument();
    await user.selectOptions(field('Division/Railway'), 'RTM/WR');
    expect(screen.queryByLabelText('SSE (Railway Engineer)')).not.toBeInTheDocument();
    await user.selectOptions(field('Section'), 'RTM-NAD');
    expect(field('SSE (Railway Engineer)')).toBeInTheDocument();
  });

  it("lists the section's SSEs sorted alphabetically, without the 'SSE' placeholder or blanks", async () => {
    const { user } = await openForm();
    await user.selectOptions(field('Division/Railway'), 'RTM/WR');
    await user.selectOptions(field('Section'), 'RTM-NAD');
    expect(optionTexts('SSE (Railway Engineer)')).toEqual(['Anand', 'Chopra', 'Verma']);
  });

  it('sorts HKM codes numerically and shows code, curve number and line', async () => {
    await openForm();
    expect(optionTexts('HKM Code')).toEqual([
      '998 · Curve 15 · Down',
      '1001 · Curve 7 · Up',
      '1002 · Curve 12 · Down',
      '1010 · Curve 12 · Up',
      '2001 · Curve 3 · Up',
      '3001 · Curve 40 · Single',
      '4001 · Curve 9 · Down',
    ]);
  });

  it('narrows HKM codes to the chosen division, section and SSE', async () => {
    const { user } = await openForm();
    await user.selectOptions(field('Division/Railway'), 'RTM/WR');
    expect(optionTexts('HKM Code')).toEqual([
      '998 · Curve 15 · Down',
      '1001 · Curve 7 · Up',
      '1002 · Curve 12 · Down',
      '1010 · Curve 12 · Up',
      '2001 · Curve 3 · Up',
    ]);
    await user.selectOptions(field('Section'), 'BEC Bypass');
    expect(optionTexts('HKM Code')).toEqual(['2001 · Curve 3 · Up']);
    await user.selectOptions(field('Section'), 'RTM-NAD');
    await user.selectOptions(field('SSE (Railway Engineer)'), 'Verma');
    expect(optionTexts('HKM Code')).toEqual(['1010 · Curve 12 · Up']);
  });
});

describe('data entry: how the fields clear and fill each other', () => {
  it('changing division clears section, curve number, HKM code and SSE', async () => {
    const { user } = await openForm();
    await user.selectOptions(field('HKM Code'), '1010');
    expect(field('Section')).toHaveValue('RTM-NAD');
    expect(field('Curve Number')).toHaveValue('12');
    expect(field('SSE (Railway Engineer)')).toHaveValue('Verma');

    await user.selectOptions(field('Division/Railway'), 'BRC/WR');
    expect(field('Section')).toHaveValue('');
    expect(field('Curve Number')).toHaveValue('');
    expect(field('HKM Code')).toHaveValue('');
    expect(screen.queryByLabelText('SSE (Railway Engineer)')).not.toBeInTheDocument();
    // No engineer of the old section narrows the new division's codes.
    expect(optionTexts('HKM Code')).toEqual(['4001 · Curve 9 · Down']);

    // Back in the first division and section, where code 1010 and SSE Verma are offered
    // again: both stay cleared.
    await user.selectOptions(field('Division/Railway'), 'RTM/WR');
    expect(optionTexts('HKM Code')).toContain('1010 · Curve 12 · Up');
    expect(field('HKM Code')).toHaveValue('');
    await user.selectOptions(field('Section'), 'RTM-NAD');
    expect(optionTexts('SSE (Railway Engineer)')).toContain('Verma');
    expect(field('SSE (Railway Engineer)')).toHaveValue('');
  });

  it('choosing FZR/NR sets the line to Single; choosing another division resets it', async () => {
    const { user } = await openForm();
    await user.selectOptions(field('Line'), 'Up');
    await user.selectOptions(field('Division/Railway'), 'FZR/NR');
    expect(field('Line')).toHaveValue('Single');
    await user.selectOptions(field('Division/Railway'), 'RTM/WR');
    expect(field('Line')).toHaveValue('');
  });

  it('changing section clears curve number, SSE and HKM code', async () => {
    const { user } = await openForm();
    await user.selectOptions(field('HKM Code'), '1010');
    expect(field('Curve Number')).toHaveValue('12');

    await user.selectOptions(field('Section'), 'BEC Bypass');
    expect(field('Curve Number')).toHaveValue('');
    expect(field('SSE (Railway Engineer)')).toHaveValue('');
    expect(field('HKM Code')).toHaveValue('');
    expect(field('Division/Railway')).toHaveValue('RTM/WR');
    // Back in the first section, where code 1010 is offered again: it stays cleared.
    await user.selectOptions(field('Section'), 'RTM-NAD');
    expect(optionTexts('HKM Code')).toContain('1010 · Curve 12 · Up');
    expect(field('HKM Code')).toHaveValue('');
  });

  it('choosing an SSE clears the HKM code and makes that SSE the railway engineer', async () => {
    const { user } = await openForm();
    await user.selectOptions(field('HKM Code'), '1010');
    await user.selectOptions(field('SSE (Railway Engineer)'), 'Anand');
    expect(field('HKM Code')).toHaveValue('');
    // Back to Verma, whose code 1010 is offered again: it stays cleared.
    await user.selectOptions(field('SSE (Railway Engineer)'), 'Verma');
    expect(optionTexts('HKM Code')).toEqual(['1010 · Curve 12 · Up']);
    expect(field('HKM Code')).toHaveValue('');
    await user.selectOptions(field('SSE (Railway Engineer)'), 'Anand');

    await user.click(screen.getByRole('button', { name: 'Log Service Details' }));
    await waitFor(() => expect(location()).toHaveTextContent(/^\/service-details$/));
    expect(storedEntry()).toMatchObject({ railwayEngineer: 'Anand', sse: 'Anand' });
  });

  it('choosing an HKM code fills division, section, curve, line, engineer and both stations in list mode', async () => {
    const { user, requests } = await openForm();
    // Station 1 was being typed by hand: the quick select brings it back to the list.
    await user.click(within(screen.getByRole('group', { name: 'Station 1 mode' })).getByRole('button', { name: 'Manual' }));
    expect(field('Station 1')).toHaveAttribute('type', 'text');

    await user.selectOptions(field('HKM Code'), '1010');
    expect(field('Division/Railway')).toHaveValue('RTM/WR');
    expect(field('Section')).toHaveValue('RTM-NAD');
    expect(field('Curve Number')).toHaveValue('12');
    // The record says UP; the form says Up.
    expect(field('Line')).toHaveValue('Up');
    expect(field('SSE (Railway Engineer)')).toHaveValue('Verma');
    // Station 1 is matched by its code (RTM), station 2 by its name (Naguda).
    await waitFor(() => expect(field('Station 1')).toHaveValue('Ratlam'));
    expect(field('Station 1').tagName).toBe('SELECT');
    expect(field('Station 2')).toHaveValue('Naguda');
    expect(field('Station 2').tagName).toBe('SELECT');
    for (const group of ['Station 1 mode', 'Station 2 mode']) {
      expect(within(screen.getByRole('group', { name: group })).getByRole('button', { name: 'List' })).toHaveAttribute('aria-pressed', 'true');
    }
    expect(requests.some((r) => r.url === '/api/stations?section=RTM-NAD')).toBe(true);
  });

  it("keeps an HKM curve's station that is not in the list as Manual text, and an 'SSE' placeholder as no engineer", async () => {
    const { user } = await openForm();
    await user.selectOptions(field('HKM Code'), '1002');
    await waitFor(() => expect(field('Station 1')).toHaveValue('Somewhere Else'));
    expect(field('Station 1')).toHaveAttribute('type', 'text');
    expect(field('Station 2')).toHaveValue('');
    expect(field('Line')).toHaveValue('Down');

    // The engineer now filters the HKM codes; with none chosen, the whole section shows again.
    await user.selectOptions(field('SSE (Railway Engineer)'), '');
    await user.selectOptions(field('HKM Code'), '1001');
    expect(field('Curve Number')).toHaveValue('7');
    expect(field('SSE (Railway Engineer)')).toHaveValue('');
  });

  it("fills an empty railway engineer with the selected curve's SSE, and keeps one already chosen", async () => {
    const { user } = await openForm();
    await chooseCurveByHand(user);
    expect(field('SSE (Railway Engineer)')).toHaveValue('Chopra');

    await user.selectOptions(field('SSE (Railway Engineer)'), 'Anand');
    await user.selectOptions(field('Curve Number'), '20');
    expect(field('SSE (Railway Engineer)')).toHaveValue('Anand');
  });

  it("takes the line of a curve laid on one line, and keeps the user's line for a number on two lines", async () => {
    const { user } = await openForm();
    await user.selectOptions(field('Division/Railway'), 'RTM/WR');
    await user.selectOptions(field('Section'), 'RTM-NAD');
    await user.selectOptions(field('Line'), 'Up');
    await user.selectOptions(field('Curve Number'), '15');
    expect(field('Line')).toHaveValue('Down');

    await user.selectOptions(field('Line'), 'Up');
    await user.selectOptions(field('Curve Number'), '12');
    expect(field('Line')).toHaveValue('Up');
    // The engineer filled in for curve 15 was not empty any more, so it stays.
    expect(field('SSE (Railway Engineer)')).toHaveValue('Chopra');
  });

  it('takes the engineer from the curve on the chosen line when a number is on two lines', async () => {
    const { user } = await openForm();
    await user.selectOptions(field('Division/Railway'), 'RTM/WR');
    await user.selectOptions(field('Section'), 'RTM-NAD');
    await user.selectOptions(field('Line'), 'Down');
    await user.selectOptions(field('Curve Number'), '12');
    expect(field('SSE (Railway Engineer)')).toHaveValue('Anand');
  });
});

describe('data entry: stations', () => {
  it('asks for stations only once a section is chosen, and lists them by name and code', async () => {
    const { user, requests } = await openForm();
    expect(field('Station 1')).toBeDisabled();
    await user.selectOptions(field('Division/Railway'), 'RTM/WR');
    expect(requests.some((r) => r.url.startsWith('/api/stations'))).toBe(false);

    await user.selectOptions(field('Section'), 'RTM-NAD');
    await waitFor(() => expect(optionTexts('Station 1')).toEqual(['Ratlam (RTM)', 'Naguda (NAD)']));
    expect(optionTexts('Station 2')).toEqual(['Ratlam (RTM)', 'Naguda (NAD)']);
    expect(requests.filter((r) => r.url.startsWith('/api/stations')).map((r) => r.url)).toEqual(['/api/stations?section=RTM-NAD']);
  });

  it('starts each station in List mode, and switching mode clears its value', async () => {
    const { user } = await openForm();
    await user.selectOptions(field('Division/Railway'), 'RTM/WR');
    await user.selectOptions(field('Section'), 'RTM-NAD');
    for (const group of ['Station 1 mode', 'Station 2 mode']) {
      expect(within(screen.getByRole('group', { name: group })).getByRole('button', { name: 'List' })).toHaveAttribute('aria-pressed', 'true');
    }
    await waitFor(() => expect(optionTexts('Station 1')).toContain('Ratlam (RTM)'));
    await user.selectOptions(field('Station 1'), 'Ratlam');
    expect(field('Station 1')).toHaveValue('Ratlam');

    const mode = within(screen.getByRole('group', { name: 'Station 1 mode' }));
    await user.click(mode.getByRole('button', { name: 'Manual' }));
    expect(field('Station 1')).toHaveAttribute('type', 'text');
    expect(field('Station 1')).toHaveValue('');

    await user.type(field('Station 1'), 'Bangrod');
    expect(field('Station 1')).toHaveValue('Bangrod');
    await user.click(mode.getByRole('button', { name: 'List' }));
    expect(field('Station 1').tagName).toBe('SELECT');
    expect(field('Station 1')).toHaveValue('');
    // The other station is not touched.
    expect(within(screen.getByRole('group', { name: 'Station 2 mode' })).getByRole('button', { name: 'List' })).toHaveAttribute('aria-pressed', 'true');
  });
});

describe('data entry: CoF value mask', () => {
  it.each([
    ['', '0.'],
    ['0', '0.'],
    ['2', '0.2'],
    ['23', '0.23'],
    ['0.234', '0.23'],
    ['abc', '0.'],
  ])('turns %j into %j in the CoF Value field', async (typed, shown) => {
    await openForm('/data-entry?type=CoF');
    // A change event with the whole value: what a paste or an autofill produces.
    fireEvent.change(field('CoF Value'), { target: { value: typed } });
    expect(field('CoF Value')).toHaveValue(shown);
  });

  it('keeps the field in the form 0.XX while typing: at most two digits after 0.', async () => {
    const { user } = await openForm('/data-entry?type=CoF');
    await user.type(field('CoF Value'), '456');
    expect(field('CoF Value')).toHaveValue('0.45');
    await user.clear(field('CoF Value'));
    expect(field('CoF Value')).toHaveValue('0.');
  });
});

describe('data entry: validation', () => {
  it('shows the required messages under each field and stores nothing', async () => {
    const { user } = await openForm();
    await user.click(screen.getByRole('button', { name: 'Log Service Details' }));

    expect(await screen.findByText('Division/Railway is required')).toBeInTheDocument();
    expect(screen.getByText('Section is required')).toBeInTheDocument();
    expect(screen.getByText('Curve number is required')).toBeInTheDocument();
    expect(screen.getByText('Please select a line')).toBeInTheDocument();
    expect(field('Division/Railway')).toHaveAccessibleDescription('Division/Railway is required');
    expect(field('Line')).toHaveAccessibleDescription('Please select a line');
    expect(storedEntry()).toBeNull();
    await waitFor(() => expect(location()).toHaveTextContent(/^\/data-entry$/));
  });

  it("shows 'CoF value is required' when the CoF value is left at 0.", async () => {
    const { user } = await openForm('/data-entry?type=CoF');
    await chooseCurveByHand(user);
    await user.click(screen.getByRole('button', { name: 'Continue to Camera' }));

    expect(await screen.findByText('CoF value is required')).toBeInTheDocument();
    expect(field('CoF Value')).toHaveAccessibleDescription(/CoF value is required/);
    expect(storedEntry()).toBeNull();
  });

  it('clears a message once the field is fixed', async () => {
    const { user } = await openForm();
    await user.click(screen.getByRole('button', { name: 'Log Service Details' }));
    expect(await screen.findByText('Please select a line')).toBeInTheDocument();
    await user.selectOptions(field('Line'), 'Up');
    await waitFor(() => expect(screen.queryByText('Please select a line')).not.toBeInTheDocument());
  });
});

describe('data entry: saving and navigation', () => {
  it('stores the Service entry as text and goes to /service-details', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(2025, 2, 14, 10, 0));
    const { user } = await openForm('/data-entry?type=Service');
    await user.selectOptions(field('HKM Code'), '1010');
    await waitFor(() => expect(field('Station 1')).toHaveValue('Ratlam'));
    await user.click(screen.getByRole('button', { name: 'Log Service Details' }));

    await waitFor(() => expect(location()).toHaveTextContent(/^\/service-details$/));
    expect(storedEntry()).toEqual({
      date: '2025-03-14',
      type: 'Service',
      divisionRailway: 'RTM/WR',
      section: 'RTM-NAD',
      curveNumber: '12',
      line: 'Up',
      station1: 'Ratlam',
      station2: 'Naguda',
      railwayEngineer: 'Verma',
      sse: 'Verma',
      cofValue: '',
      location: '',
      km: '',
      pole1: '',
      pole2: '',
      clientSubmissionId: expect.stringMatching(UUID),
    });
  });

  it('stores the CoF fields and goes to /camera', async () => {
    const { user } = await openForm('/data-entry?type=CoF');
    await chooseCurveByHand(user);
    await user.type(field('CoF Value'), '27');
    await user.selectOptions(field('Location'), 'Near End');
    await user.type(field('KM'), '452/10');
    await user.type(field('Pole 1'), '12');
    await user.type(field('Pole 2'), '14');
    await user.click(within(screen.getByRole('group', { name: 'Station 2 mode' })).getByRole('button', { name: 'Manual' }));
    await user.type(field('Station 2'), 'Bangrod');
    await user.click(screen.getByRole('button', { name: 'Continue to Camera' }));

    await waitFor(() => expect(location()).toHaveTextContent(/^\/camera$/));
    expect(storedEntry()).toMatchObject({
      type: 'CoF',
      curveNumber: '15',
      line: 'Down',
      railwayEngineer: 'Chopra',
      sse: 'Chopra',
      station1: '',
      station2: 'Bangrod',
      cofValue: '0.27',
      location: 'Near End',
      km: '452/10',
      pole1: '12',
      pole2: '14',
    });
  });

  it('goes Back to /purpose with the type', async () => {
    const { user } = await openForm('/data-entry?type=CoF');
    await user.click(screen.getByRole('button', { name: /Back/ }));
    await waitFor(() => expect(location()).toHaveTextContent('/purpose?type=CoF'));
  });

  it('prefills from a stored entry of the same type and keeps its submission id when saved again', async () => {
    storeEntry({ ...STORED_SERVICE_ENTRY, serviceUpdate: 'working-fine', greaseDepth: '2.5' });
    const { user } = await openForm('/data-entry?type=Service');
    expect(field('Division/Railway')).toHaveValue('RTM/WR');
    expect(field('Section')).toHaveValue('RTM-NAD');
    expect(field('Curve Number')).toHaveValue('15');
    expect(field('Line')).toHaveValue('Down');
    expect(field('SSE (Railway Engineer)')).toHaveValue('Chopra');
    await waitFor(() => expect(field('Station 1')).toHaveValue('Ratlam'));

    await user.click(screen.getByRole('button', { name: 'Log Service Details' }));
    await waitFor(() => expect(location()).toHaveTextContent(/^\/service-details$/));
    expect(storedEntry()).toMatchObject({
      clientSubmissionId: STORED_SERVICE_ENTRY.clientSubmissionId,
      serviceUpdate: 'working-fine',
      greaseDepth: '2.5',
    });
  });

  it('starts empty for the other type and gives the new entry its own submission id', async () => {
    storeEntry(STORED_SERVICE_ENTRY);
    const { user } = await openForm('/data-entry?type=CoF');
    expect(field('Division/Railway')).toHaveValue('');

    await chooseCurveByHand(user);
    await user.type(field('CoF Value'), '3');
    await user.click(screen.getByRole('button', { name: 'Continue to Camera' }));
    await waitFor(() => expect(location()).toHaveTextContent(/^\/camera$/));
    const saved = storedEntry();
    expect(saved).toMatchObject({ type: 'CoF', cofValue: '0.3', clientSubmissionId: expect.stringMatching(UUID) });
    expect(saved).not.toMatchObject({ clientSubmissionId: STORED_SERVICE_ENTRY.clientSubmissionId });
  });
});

describe('data entry: loading the curves', () => {
  it('GETs the curve list with the spec limit and says it is loading', async () => {
    const answer = deferred<Response>();
    const requests = signedInWithReferenceData({ curves: () => answer.promise });
    renderApp('/data-entry');
    expect(await screen.findByText('Loading curves...')).toBeInTheDocument();
    expect(requests.some((r) => r.url === '/api/consolidated-curves?limit=1000')).toBe(true);
    answer.resolve(jsonResponse(200, { curves: [], total: 0 }));
    await waitFor(() => expect(screen.queryByText('Loading curves...')).not.toBeInTheDocument());
  });

  it('says when the curves could not be loaded, and Retry loads them', async () => {
    let calls = 0;
    signedInWithReferenceData({
      curves: () => {
        calls += 1;
        return calls === 1 ? new Response('down', { status: 503 }) : jsonResponse(200, { curves: [], total: 0 });
      },
    });
    renderApp('/data-entry');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Could not load curves. Check your connection and try again.');

    await userEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    await waitFor(() =>
      expect(screen.queryByText('Could not load curves. Check your connection and try again.')).not.toBeInTheDocument(),
    );
    expect(calls).toBe(2);
  });
});
