/**
 * The whole demo dataset as plain rows, built without touching the database, so the same
 * `today` always gives the same rows.
 */
import type { machineParts, stations } from '../schema.js';
import { buildNetwork, type DemoCurve } from './curves.js';
import { addHistory } from './history.js';
import { planInspections, type DemoInspection } from './inspections.js';
import { PART_CATALOGUE } from './reference-data.js';
import { buildRollout, type DemoRollout } from './rollout.js';

export interface DemoDataset extends Omit<DemoRollout, 'commissioned'> {
  stations: Array<typeof stations.$inferInsert>;
  curves: DemoCurve[];
  machineParts: Array<typeof machineParts.$inferInsert>;
  inspections: DemoInspection[];
}

export function buildDemoDataset(today: string): DemoDataset {
  const network = buildNetwork();
  const { commissioned, ...rollout } = buildRollout(network.curves, today);
  return {
    ...network,
    ...rollout,
    machineParts: PART_CATALOGUE.flatMap((c) => c.items.map((itemName) => ({ category: c.category, itemName }))).map(
      (part, index) => ({ no: index + 1, ...part }),
    ),
    inspections: addHistory(commissioned, planInspections(commissioned, today), today),
  };
}
