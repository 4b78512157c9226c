import { I18nProvider } from '@lingui/react';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { i18n } from '../../lib/i18n.js';
import { ToastHost } from './toast-host.js';
import { toast } from './toast-store.js';

/** The texts' context the app's providers give (no test here needs more of them). */
function WithTexts({ children }: { children: ReactNode }) {
  return <I18nProvider i18n={i18n}>{children}</I18nProvider>;
}

describe('ToastHost', () => {
  it('shows one toast at a time: a new toast replaces the old one', () => {
    render(<ToastHost />, { wrapper: WithTexts });
    act(() => {
      toast({ title: 'Curve Updated', description: 'first' });
    });
    act(() => {
      toast({ title: 'Station Updated', description: 'second' });
    });

    expect(screen.getAllByRole('status')).toHaveLength(1);
    expect(screen.getByRole('status')).toHaveTextContent('Station Updated');
    expect(screen.queryByText('Curve Updated')).not.toBeInTheDocument();
  });

  it('removes a toast after 5000 ms', () => {
    vi.useFakeTimers();
    render(<ToastHost />, { wrapper: WithTexts });
    act(() => {
      toast({ title: 'Record Deleted' });
    });

    act(() => vi.advanceTimersByTime(4999));
    expect(screen.getByText('Record Deleted')).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.queryByText('Record Deleted')).not.toBeInTheDocument();
  });

  it('gives a replacing toast its own full 5000 ms', () => {
    vi.useFakeTimers();
    render(<ToastHost />, { wrapper: WithTexts });
    act(() => {
      toast({ title: 'First' });
    });
    act(() => vi.advanceTimersByTime(3000));
    act(() => {
      toast({ title: 'Second' });
    });
    act(() => vi.advanceTimersByTime(4000));
    expect(screen.getByText('Second')).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(1000));
    expect(screen.queryByText('Second')).not.toBeInTheDocument();
  });

  it('announces destructive toasts as alerts, with title and description', () => {
    render(<ToastHost />, { wrapper: WithTexts });
    act(() => {
      toast({ variant: 'destructive', title: 'Login Failed', description: 'Invalid credentials. Please try again.' });
    });
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('Login Failed');
    expect(alert).toHaveTextContent('Invalid credentials. Please try again.');
  });

  it('closes a toast with its close button', async () => {
    render(<ToastHost />, { wrapper: WithTexts });
    act(() => {
      toast({ title: 'Password Reset' });
    });
    await userEvent.click(screen.getByRole('button', { name: 'Close notification' }));
    expect(screen.queryByText('Password Reset')).not.toBeInTheDocument();
  });
});
