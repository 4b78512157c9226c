import type { LastProgress, MachineTotals } from '../../../../common/schemas/machines.js';
import { visitDateText } from '../../lib/date-text.js';
import { cn } from '../../lib/cn.js';

/** A share of the scope as people say it: "81%", "<1%" for a few, never "NaN%". */
export function percentOf(value: number, scope: number): string {
  if (scope === 0) return '–';
  const share = (value / scope) * 100;
  if (value > 0 && share < 1) return '<1%';
  return `${Math.round(share)}%`;
}

interface Stage {
  label: string;
  value: number;
  /** The latest day a curve reached this stage. */
  on: string | null;
  /** Who is held up before this stage: curves of the stage before that have not reached it. */
  waiting: string | null;
  barClass: string;
}

function stagesOf(totals: MachineTotals, lastProgress: LastProgress): Stage[] {
  return [
    { label: 'Curves in scope', value: totals.scope, on: null, waiting: null, barClass: 'bg-slate-500' },
    {
      label: 'Foundation completed',
      value: totals.foundationCompleted,
      on: lastProgress.foundation,
      waiting: `${totals.scope - totals.foundationCompleted} waiting for a foundation`,
      barClass: 'bg-amber-600',
    },
    {
      label: 'Machines installed',
      value: totals.machinesInstalled,
      on: lastProgress.installed,
      waiting: `${totals.foundationCompleted - totals.machinesInstalled} foundations without a machine`,
      barClass: 'bg-sky-700',
    },
    {
      label: 'Machines commissioned',
      value: totals.machinesCommissioned,
      on: lastProgress.commissioned,
      waiting: `${totals.machinesInstalled - totals.machinesCommissioned} machines not commissioned`,
      barClass: 'bg-emerald-700',
    },
  ];
}

/**
 * The rollout as a funnel: each stage's bar is its share of the scope, and between two stages
 * the curves held up there, so where the rollout is stuck reads at a glance.
 */
export function RolloutFunnel({ totals, lastProgress }: { totals: MachineTotals; lastProgress: LastProgress }) {
  const stages = stagesOf(totals, lastProgress);
  return (
    <ol aria-label="Rollout funnel" className="flex flex-col gap-3">
      {stages.map((stage) => (
        <li key={stage.label} className="flex flex-col gap-1">
          {stage.waiting ? <p className="text-sm text-slate-700">↓ {stage.waiting}</p> : null}
          <div className="flex flex-wrap items-baseline justify-between gap-x-3">
            <span className="font-semibold text-slate-900">{stage.label}</span>
            <span className="tabular-nums text-slate-900">
              <span className="text-lg font-bold">{stage.value.toLocaleString('en-IN')}</span>
              <span className="ml-2 text-sm text-slate-700">{percentOf(stage.value, totals.scope)}</span>
            </span>
          </div>
          <div className="h-4 w-full overflow-hidden rounded bg-slate-200" aria-hidden="true">
            <div
              className={cn('h-full rounded', stage.barClass)}
              style={{ width: totals.scope === 0 ? '0%' : `${Math.min(100, (stage.value / totals.scope) * 100)}%` }}
            />
          </div>
          {stage.on ? <p className="text-xs text-slate-700">Last on {visitDateText(stage.on)}</p> : null}
        </li>
      ))}
    </ol>
  );
}
