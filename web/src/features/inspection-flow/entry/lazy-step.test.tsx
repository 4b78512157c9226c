import { I18nProvider } from '@lingui/react';
import { render as renderBare, screen } from '@testing-library/react';
import { type ReactElement, Suspense } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { i18n } from '../../../lib/i18n.js';
import { lazyStep } from './lazy-step.js';

// Without the app's providers: the failure card's texts need the i18n context.
const render = (ui: ReactElement) => renderBare(<I18nProvider i18n={i18n}>{ui}</I18nProvider>);

function Greeting({ name }: { name: string }) {
  return <p>Hello {name}</p>;
}

describe('lazyStep', () => {
  it('renders the loaded form with its props', async () => {
    const step = lazyStep(() => Promise.resolve(Greeting));
    render(
      <Suspense fallback={<p>Loading form...</p>}>
        <step.Component name="Ravi" />
      </Suspense>,
    );
    expect(await screen.findByText('Hello Ravi')).toBeInTheDocument();
  });

  it('says the form could not be loaded, with Try Again, when its code cannot be fetched', async () => {
    const step = lazyStep<{ name: string }>(() => Promise.reject(new TypeError('Failed to fetch dynamically imported module')));
    render(
      <Suspense fallback={<p>Loading form...</p>}>
        <step.Component name="Ravi" />
      </Suspense>,
    );
    expect(await screen.findByRole('alert')).toHaveTextContent('This form could not be loaded');
    expect(screen.getByRole('button', { name: 'Try Again' })).toBeInTheDocument();
  });

  it('fetches again after a failed preload instead of keeping the failure', async () => {
    const load = vi.fn<() => Promise<typeof Greeting>>().mockRejectedValueOnce(new TypeError('offline')).mockResolvedValue(Greeting);
    const step = lazyStep(load);
    await expect(step.preload()).rejects.toThrow('offline');
    await expect(step.preload()).resolves.toBe(Greeting);
    await step.preload();
    expect(load).toHaveBeenCalledTimes(2);
  });
});
