import { Trans } from '@lingui/react/macro';
import { type ComponentType, lazy, type LazyExoticComponent } from 'react';
import { Button } from '../../../components/ui/button.js';
import { Card, CardDescription, CardTitle } from '../../../components/ui/card.js';
import { withScreenTexts } from '../../../lib/i18n.js';

/** Shown when a step's code cannot be fetched (no signal): the stored entry is untouched. */
function StepLoadFailed() {
  return (
    <Card role="alert">
      <CardTitle>
        <Trans>This form could not be loaded</Trans>
      </CardTitle>
      <CardDescription className="mt-1 text-base">
        <Trans>Please check your connection and try again. Details you already saved are kept.</Trans>
      </CardDescription>
      <Button size="lg" className="mt-4 w-full" onClick={() => window.location.reload()}>
        <Trans>Try Again</Trans>
      </Button>
    </Card>
  );
}

/**
 * A form whose code loads apart from the first page load (docs/architecture.md, 'Budgets'), with a
 * preload so an earlier screen can fetch it while the signal is still there. A failed fetch
 * is forgotten, so the next preload or render tries again instead of failing at once.
 */
export function lazyStep<P extends object>(
  load: () => Promise<ComponentType<P>>,
): { Component: LazyExoticComponent<ComponentType<P>>; preload: () => Promise<ComponentType<P>> } {
  let loading: Promise<ComponentType<P>> | null = null;
  const preload = () => {
    // The step's texts (the field catalogue, lingui.config.ts) come with its code.
    loading ??= withScreenTexts(load)().catch((error: unknown) => {
      loading = null;
      throw error;
    });
    return loading;
  };
  const Component = lazy(() =>
    preload().then(
      (component) => ({ default: component }),
      (): { default: ComponentType<P> } => ({ default: StepLoadFailed }),
    ),
  );
  return { Component, preload };
}
