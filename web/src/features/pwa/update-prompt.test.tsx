import { I18nProvider } from '@lingui/react';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../lib/i18n.js';
import { UpdatePrompt } from './update-prompt.js';
import { announceUpdate, dismissUpdate } from './update-store.js';

/** The texts' context the app's providers give (no test here needs more of them). */
function WithTexts({ children }: { children: ReactNode }) {
  return <I18nProvider i18n={i18n}>{children}</I18nProvider>;
}

afterEach(() => {
  act(() => dismissUpdate());
});

describe('UpdatePrompt', () => {
  it('shows nothing until a new version is waiting', () => {
    render(<UpdatePrompt />, { wrapper: WithTexts });
    expect(screen.queryByText('A new version is available.')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Update now' })).not.toBeInTheDocument();
  });

  it('announces a waiting version politely and switches to it only on "Update now"', async () => {
    const apply = vi.fn(() => new Promise<void>(() => {}));
    render(<UpdatePrompt />, { wrapper: WithTexts });
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
    render(<UpdatePrompt />, { wrapper: WithTexts });
    act(() => announceUpdate(apply));

    await userEvent.click(screen.getByRole('button', { name: 'Later' }));
    expect(screen.queryByText('A new version is available.')).not.toBeInTheDocument();
    expect(apply).not.toHaveBeenCalled();
  });

  it('offers the update again when activating it failed', async () => {
    const apply = vi.fn(() => Promise.reject(new Error('no waiting worker')));
    render(<UpdatePrompt />, { wrapper: WithTexts });
    act(() => announceUpdate(apply));

    await userEvent.click(screen.getByRole('button', { name: 'Update now' }));
    expect(await screen.findByRole('button', { name: 'Update now' })).toBeEnabled();
  });
});
