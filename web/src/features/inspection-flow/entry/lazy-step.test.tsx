import { render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { lazyStep } from './lazy-step.js';

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
