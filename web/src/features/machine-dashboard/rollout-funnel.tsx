import { t } from '@lingui/core/macro';
import { useLingui } from '@lingui/react';
import type { LastProgress, MachineTotals } from '../../../../common/schemas/machines.js';
import { visitDateText } from '../../lib/date-text.js';
import { cn } from '../../lib/cn.js';
import { countText } from '../../lib/number-text.js';

/** A share of the scope as people say it: "81%", "<1%" for a few, never "NaN%". */
export function percentOf(value: number, scope: number): string {
  if (scope === 0) return '–';
  const share = (value / scope) * 100;
  if (value > 0 && share < 1) return '<1%';
  return `${Math.round(share)}%`;
}

interface Stage {
  /** React's key: the same in every language. */
  key: string;
  label: string;
  value: number;
  /** The latest day a curve reached this stage. */
  on: string | null;
  /** Who is held up before this stage: curves of the stage before that have not reached it. */
  waiting: string | null;
  barClass: string;
}

/** Made at render, so its texts are in the language shown. */
function stagesOf(totals: MachineTotals, lastProgress: LastProgress): Stage[] {
  const withoutFoundation = totals.scope - totals.foundationCompleted;
  const withoutMachine = totals.foundationCompleted - totals.machinesInstalled;
  const notCommissioned = totals.machinesInstalled - totals.machinesCommissioned;
  return [
    { key: 'scope', label: t`Curves in scope`, value: totals.scope, on: null, waiting: null, barClass: 'bg-slate-500' },
    {
      key: 'foundation',
      label: t`Foundation completed`,
      value: totals.foundationCompleted,
      on: lastProgress.foundation,
      waiting: t`${withoutFoundation} waiting for a foundation`,
      barClass: 'bg-amber-600',
    },
    {
      key: 'installed',
      label: t`Machines installed`,
      value: totals.machinesInstalled,
      on: lastProgress.installed,
      waiting: t`${withoutMachine} foundations without a machine`,
      barClass: 'bg-sky-700',
    },
    {
      key: 'commissioned',
      label: t`Machines commissioned`,
      value: totals.machinesCommissioned,
      on: lastProgress.commissioned,
      waiting: t`${notCommissioned} machines not commissioned`,
      barClass: 'bg-emerald-700',
    },
  ];
}

function lastOnText(date: string): string {
  const day = visitDateText(date);
  return t`Last on ${day}`;
}

/**
 * The rollout as a funnel: each stage's bar is its share of the scope, and between two stages
 * the curves held up there, so where the rollout is stuck reads at a glance.
 */
export function RolloutFunnel({ totals, lastProgress }: { totals: MachineTotals; lastProgress: LastProgress }) {
  // Re-renders in a newly chosen language: the texts below are read at render.
  useLingui();
  const stages = stagesOf(totals, lastProgress);
  return (
    <ol aria-label={t`Rollout funnel`} className="flex flex-col gap-3">
      {stages.map((stage) => (
        <li key={stage.key} className="flex flex-col gap-1">
          {stage.waiting ? <p className="text-sm text-slate-700">↓ {stage.waiting}</p> : null}
          <div className="flex flex-wrap items-baseline justify-between gap-x-3">
            <span className="font-semibold text-slate-900">{stage.label}</span>
            <span className="tabular-nums text-slate-900">
              <span className="text-lg font-bold">{countText(stage.value)}</span>
              <span className="ml-2 text-sm text-slate-700">{percentOf(stage.value, totals.scope)}</span>
            </span>
          </div>
          <div className="h-4 w-full overflow-hidden rounded bg-slate-200" aria-hidden="true">
            <div
              className={cn('h-full rounded', stage.barClass)}
              style={{ width: totals.scope === 0 ? '0%' : `${Math.min(100, (stage.value / totals.scope) * 100)}%` }}
            />
          </div>
          {stage.on ? <p className="text-xs text-slate-700">{lastOnText(stage.on)}</p> : null}
        </li>
      ))}
    </ol>
  );
}
