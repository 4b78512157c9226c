import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { UpdatePrompt } from './update-prompt.js';
import { announceUpdate, dismissUpdate } from './update-store.js';

afterEach(() => {
  act(() => dismissUpdate());
});

describe('UpdatePrompt', () => {
  it('shows nothing until a new version is waiting', () => {
    render(<UpdatePrompt />);
    expect(screen.queryByText('A new version is available.')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Update now' })).not.toBeInTheDocument();
  });

  it('announces a waiting version politely and switches to it only on "Update now"', async () => {
    const apply = vi.fn(() => new Promise<void>(() => {}));
    render(<UpdatePrompt />);
    act(() => announceUpdate(apply));

    const banner = screen.getByRole('status');
    expect(banner).toHaveTextContent('A new version is available.');
    expect(apply).not.toHaveBeenCalled();

    await userEvent.click(screen.getByRole('button', { name: 'Update now' }));
    expect(apply).toHaveBeenCalledTimes(1);
    // The page reloads once the new worker takes over; until then the buttons stay off.
    expect(screen.getByRole('button', { name: 'Updating...' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Later' })).toBeDisabled();
  });

  it('"Later" hides the banner and keeps the current version', async () => {
    const apply = vi.fn(() => Promise.resolve());
    render(<UpdatePrompt />);
    act(() => announceUpdate(apply));

    await userEvent.click(screen.getByRole('button', { name: 'Later' }));
    expect(screen.queryByText('A new version is available.')).not.toBeInTheDocument();
    expect(apply).not.toHaveBeenCalled();
  });

  it('offers the update again when activating it failed', async () => {
    const apply = vi.fn(() => Promise.reject(new Error('no waiting worker')));
    render(<UpdatePrompt />);
    act(() => announceUpdate(apply));

    await userEvent.click(screen.getByRole('button', { name: 'Update now' }));
    expect(await screen.findByRole('button', { name: 'Update now' })).toBeEnabled();
  });
});
