import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../../test/render-app.js';
import {
  signedInWithReferenceData,
  STORED_SERVICE_ENTRY,
  storedEntry,
  storeEntry,
} from './entry/test-fixtures.js';

const location = () => screen.getByTestId('location');
const field = (label: string) => screen.getByLabelText(label);
const optionTexts = (label: string) => {
  const element = screen.getByLabelText(label);
  if (!(element instanceof HTMLSelectElement)) throw new Error(`${label} is not a select`);
  return [...element.options].filter((o) => o.value !== '').map((o) => o.textContent);
};
const partRequests = (requests: { url: string }[]) => requests.filter((r) => r.url.startsWith('/api/machine-parts'));

/** Opens step 2 with a stored entry and waits for the form, whose code loads on demand. */
async function openDetails(entry = STORED_SERVICE_ENTRY) {
  storeEntry(entry);
  const requests = signedInWithReferenceData();
  renderApp('/service-details');
  await screen.findByRole('button', { name: 'Continue' });
  return { requests, user: userEvent.setup() };
}

async function chooseBrokenPart(user: ReturnType<typeof userEvent.setup>, category = 'Pump', item = 'Pump seal') {
  await user.click(screen.getByRole('radio', { name: 'Some part is broken' }));
  await waitFor(() => expect(optionTexts('Category')).toContain(category));
  await user.selectOptions(field('Category'), category);
  await waitFor(() => expect(optionTexts('Item Name')).toContain(item));
  await user.selectOptions(field('Item Name'), item);
}

describe('service details: screen', () => {
  it('sends the user to /purpose when no entry is stored', async () => {
    signedInWithReferenceData();
    renderApp('/service-details');
    expect(await screen.findByRole('heading', { name: 'Select Purpose' })).toBeInTheDocument();
    await waitFor(() => expect(location()).toHaveTextContent(/^\/purpose$/));
  });

  it("shows 'Step 2 of 4' and the four service updates with the spec's labels", async () => {
    await openDetails();
    expect(screen.getByText('Step 2 of 4')).toBeInTheDocument();
    const group = screen.getByRole('group', { name: 'Service Update' });
    expect(within(group).getAllByRole('radio').map((r) => r.closest('label')?.textContent)).toEqual([
      'Machine is working fine',
      'Some part is broken',
      'Some part is stolen',
      'Uninstall the machine',
    ]);
    expect(within(group).getAllByRole('radio').map((r) => r.getAttribute('value'))).toEqual([
      'working-fine',
      'part-broken',
      'part-stolen',
      'uninstall',
    ]);
  });

  it('summarises the curve chosen in step 1', async () => {
    await openDetails();
    const summary = screen.getByRole('region', { name: 'Selected Curve' });
    for (const text of ['RTM/WR', 'RTM-NAD', '15', 'Down', 'Ratlam', 'Naguda', 'Chopra']) {
      expect(within(summary).getByText(text)).toBeInTheDocument();
    }
  });

  it('has a Grease Depth (cm) number input from 0 to 10 in steps of 0.1', async () => {
    await openDetails();
    const depth = field('Grease Depth (cm)');
    expect(depth).toHaveAttribute('type', 'number');
    expect(depth).toHaveAttribute('min', '0');
    expect(depth).toHaveAttribute('max', '10');
    expect(depth).toHaveAttribute('step', '0.1');
  });
});

describe('service details: parts', () => {
  it('asks for categories only when a part is broken or stolen', async () => {
    const { requests, user } = await openDetails();
    await user.click(screen.getByRole('radio', { name: 'Machine is working fine' }));
    await user.click(screen.getByRole('radio', { name: 'Uninstall the machine' }));
    expect(screen.queryByLabelText('Category')).not.toBeInTheDocument();
    expect(partRequests(requests)).toEqual([]);

    await user.click(screen.getByRole('radio', { name: 'Some part is stolen' }));
    await waitFor(() => expect(optionTexts('Category')).toEqual(['Pump', 'Nozzle']));
    expect(partRequests(requests).map((r) => r.url)).toEqual(['/api/machine-parts/categories']);

    await user.click(screen.getByRole('radio', { name: 'Some part is broken' }));
    expect(field('Category')).toBeInTheDocument();
  });

  it("lists the chosen category's items from /api/machine-parts?category=", async () => {
    const { requests, user } = await openDetails();
    await user.click(screen.getByRole('radio', { name: 'Some part is broken' }));
    await waitFor(() => expect(optionTexts('Category')).toContain('Pump'));
    expect(field('Item Name')).toBeDisabled();
    await user.selectOptions(field('Category'), 'Pump');
    await waitFor(() => expect(optionTexts('Item Name')).toEqual(['Pump motor', 'Pump seal']));
    expect(requests.some((r) => r.url === '/api/machine-parts?category=Pump')).toBe(true);
  });

  it('changing the service update clears the category and the item', async () => {
    const { user } = await openDetails();
    await chooseBrokenPart(user);
    await user.click(screen.getByRole('radio', { name: 'Some part is stolen' }));
    expect(field('Category')).toHaveValue('');
    expect(field('Item Name')).toHaveValue('');
  });

  it('changing the category clears the item', async () => {
    const { user } = await openDetails();
    await chooseBrokenPart(user);
    await user.selectOptions(field('Category'), 'Nozzle');
    expect(field('Item Name')).toHaveValue('');
    await waitFor(() => expect(optionTexts('Item Name')).toEqual(['Nozzle tip']));
  });
});

describe('service details: validation', () => {
  it("says 'Please select a service update' and stays", async () => {
    const { user } = await openDetails();
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('Please select a service update')).toBeInTheDocument();
    await waitFor(() => expect(location()).toHaveTextContent(/^\/service-details$/));
  });

  it("says 'Please select a part category' and 'Please select an item name' for a broken part", async () => {
    const { user } = await openDetails();
    await user.click(screen.getByRole('radio', { name: 'Some part is broken' }));
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('Please select a part category')).toBeInTheDocument();
    expect(screen.getByText('Please select an item name')).toBeInTheDocument();
    await waitFor(() => expect(location()).toHaveTextContent(/^\/service-details$/));
  });

  it.each([
    ['10.5', 'Grease depth must be between 0 and 10 cm'],
    ['-0.1', 'Grease depth must be between 0 and 10 cm'],
    ['2.55', 'Grease depth must be in steps of 0.1'],
  ])('rejects a grease depth of %s', async (depth, message) => {
    const { user } = await openDetails();
    await user.click(screen.getByRole('radio', { name: 'Machine is working fine' }));
    await user.type(field('Grease Depth (cm)'), depth);
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(field('Grease Depth (cm)')).toHaveAccessibleDescription(message);
    await waitFor(() => expect(location()).toHaveTextContent(/^\/service-details$/));
  });

  it.each(['0', '10', '4.5'])('accepts a grease depth of %s', async (depth) => {
    const { user } = await openDetails();
    await user.click(screen.getByRole('radio', { name: 'Machine is working fine' }));
    await user.type(field('Grease Depth (cm)'), depth);
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(location()).toHaveTextContent(/^\/review$/));
    expect(storedEntry()).toMatchObject({ greaseDepth: depth });
  });
});

describe('service details: saving and navigation', () => {
  it('Continue stores the service details into the entry and goes to /review', async () => {
    const { user } = await openDetails();
    await chooseBrokenPart(user);
    await user.type(field('Grease Depth (cm)'), '3.5');
    await user.click(screen.getByRole('button', { name: 'Continue' }));

    await waitFor(() => expect(location()).toHaveTextContent(/^\/review$/));
    expect(storedEntry()).toEqual({
      ...STORED_SERVICE_ENTRY,
      serviceUpdate: 'part-broken',
      partCategory: 'Pump',
      partItemName: 'Pump seal',
      greaseDepth: '3.5',
    });
  });

  it('stores empty parts and depth for a machine working fine', async () => {
    const { user } = await openDetails();
    await user.click(screen.getByRole('radio', { name: 'Machine is working fine' }));
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(location()).toHaveTextContent(/^\/review$/));
    expect(storedEntry()).toMatchObject({ serviceUpdate: 'working-fine', partCategory: '', partItemName: '', greaseDepth: '' });
  });

  it('goes Back to /data-entry?type=Service', async () => {
    const { user } = await openDetails();
    await user.click(screen.getByRole('button', { name: /Back/ }));
    await waitFor(() => expect(location()).toHaveTextContent('/data-entry?type=Service'));
    expect(await screen.findByRole('heading', { name: 'Service Inspection' })).toBeInTheDocument();
  });

  it('prefills the answers already stored in the entry', async () => {
    await openDetails({ ...STORED_SERVICE_ENTRY, serviceUpdate: 'part-stolen', partCategory: 'Nozzle', partItemName: 'Nozzle tip', greaseDepth: '1.5' });
    expect(screen.getByRole('radio', { name: 'Some part is stolen' })).toBeChecked();
    expect(field('Grease Depth (cm)')).toHaveValue(1.5);
    await waitFor(() => expect(field('Category')).toHaveValue('Nozzle'));
    expect(field('Item Name')).toHaveValue('Nozzle tip');
  });
});
