/**
 * Machine rollout (issue 13): how far the lubricators have got, division by division.
 *
 * Two sources, kept apart on purpose. The per-curve rollout records (curve_records) say, for
 * each curve in scope, when its foundation was laid, its machine installed and commissioned;
 * the machine dashboard's totals, filters and DEN/AEN tables are counted from them. The owner's
 * figures per division (machine_dashboard_summary) are what the railway was told; the reports
 * landing shows them, and beside them the per-curve count where the two disagree.
 *
 * The per-curve figures are worked out once per change of curve_records (any instance's write
 * bumps its version) and kept per instance, so what is served is always current: the spec's
 * "never cached" is about never showing stale totals, which this keeps.
 */
import { DIVISIONS } from '../../../common/constants.js';
import { divisionScope } from '../../../common/rules/division-scope.js';
import { ROLLOUT_FIELDS, type RolloutFigures, rolloutName, stageEntry } from '../../../common/rules/rollout.js';
import type { PublicUser } from '../../../common/schemas/auth.js';
import type {
  LastProgress,
  MachineBreakdownRow,
  MachineFiltersQuery,
  MachineFiltersResponse,
  MachineProgressQuery,
  MachineProgressResponse,
  MachineStatsQuery,
  MachineStatsResponse,
  MachineSummary,
  MachineSummaryUpdate,
  MachineTotals,
} from '../../../common/schemas/machines.js';
import { machineFiltersResponseSchema, machineStatsResponseSchema } from '../../../common/schemas/machines.js';
import type { Db } from '../../db/client.js';
import { readTableVersions, VersionedCache } from '../../db/versioned-cache.js';
import { JsonBody } from '../../json-body.js';
import { type Actor, auditOf, recordAudit } from '../../audit/index.js';
import { lockSummaryRow, listSummaryRows, readRolloutCells, type RolloutCells, type SummaryRow, upsertSummaryRow } from './repository.js';

/** The figures of the curves of one division, DEN and AEN. */
interface RolloutGroup {
  division: string;
  den: string | null;
  aen: string | null;
  totals: MachineTotals;
  lastProgress: LastProgress;
}

const zeroTotals = (): MachineTotals => ({ scope: 0, curveCount: 0, foundationCompleted: 0, machinesInstalled: 0, machinesCommissioned: 0 });
const noProgress = (): LastProgress => ({ foundation: null, installed: null, commissioned: null });
const later = (a: string | null, b: string | null) => (a === null ? b : b === null || a >= b ? a : b);

function addInto(target: { totals: MachineTotals; lastProgress: LastProgress }, from: { totals: MachineTotals; lastProgress: LastProgress }) {
  for (const key of Object.keys(target.totals) as (keyof MachineTotals)[]) target.totals[key] += from.totals[key];
  target.lastProgress.foundation = later(target.lastProgress.foundation, from.lastProgress.foundation);
  target.lastProgress.installed = later(target.lastProgress.installed, from.lastProgress.installed);
  target.lastProgress.commissioned = later(target.lastProgress.commissioned, from.lastProgress.commissioned);
}

/** Every curve record counted into its (division, DEN, AEN) group, by the rollout rule. */
function groupRollout(cells: readonly RolloutCells[]): RolloutGroup[] {
  const groups = new Map<string, RolloutGroup>();
  for (const cell of cells) {
    const den = rolloutName(cell.den);
    const aen = rolloutName(cell.aen);
    const key = JSON.stringify([cell.division, den, aen]);
    let group = groups.get(key);
    if (!group) {
      group = { division: cell.division, den, aen, totals: zeroTotals(), lastProgress: noProgress() };
      groups.set(key, group);
    }
    const foundation = stageEntry(cell.foundation);
    const machine = stageEntry(cell.machine);
    const commissioned = stageEntry(cell.commissioned);
    group.totals.scope += 1;
    group.totals.curveCount += 1;
    if (foundation.done) group.totals.foundationCompleted += 1;
    if (machine.done) group.totals.machinesInstalled += 1;
    if (commissioned.done) group.totals.machinesCommissioned += 1;
    group.lastProgress.foundation = later(group.lastProgress.foundation, foundation.on);
    group.lastProgress.installed = later(group.lastProgress.installed, machine.on);
    group.lastProgress.commissioned = later(group.lastProgress.commissioned, commissioned.on);
  }
  return [...groups.values()];
}

function sumOf(groups: readonly RolloutGroup[]): { totals: MachineTotals; lastProgress: LastProgress } {
  const sum = { totals: zeroTotals(), lastProgress: noProgress() };
  for (const group of groups) addInto(sum, group);
  return sum;
}

const byName = (a: string | null, b: string | null) => (a === null ? 1 : b === null ? -1 : a.localeCompare(b, 'en'));

/** One row per DEN (no DEN chosen) or per AEN under the chosen DEN, named in order, unnamed last. */
function breakdownOf(groups: readonly RolloutGroup[], den: string | undefined): MachineStatsResponse['breakdown'] {
  const rows = new Map<string, MachineBreakdownRow>();
  for (const group of groups) {
    const name = den === undefined ? group.den : group.aen;
    const key = JSON.stringify(name);
    let row = rows.get(key);
    if (!row) {
      row = { name, den: den === undefined ? group.den : den, totals: zeroTotals(), lastProgress: noProgress() };
      rows.set(key, row);
    }
    addInto(row, group);
  }
  return { level: den === undefined ? 'DEN' : 'AEN', rows: [...rows.values()].sort((a, b) => byName(a.name, b.name)) };
}

const distinctNames = (names: ReadonlyArray<string | null>): string[] =>
  [...new Set(names.filter((n): n is string => n !== null))].sort((a, b) => a.localeCompare(b, 'en'));

const figuresOf = (row: Pick<SummaryRow, (typeof ROLLOUT_FIELDS)[number]>): RolloutFigures => ({
  scope: row.scope,
  foundationCompleted: row.foundationCompleted,
  machinesInstalled: row.machinesInstalled,
  machinesCommissioned: row.machinesCommissioned,
});

function presentSummary(division: string, row: SummaryRow | undefined): MachineSummary {
  return row
    ? { division, ...figuresOf(row), updatedAt: row.updatedAt.toISOString() }
    : { division, scope: 0, foundationCompleted: 0, machinesInstalled: 0, machinesCommissioned: 0, updatedAt: null };
}

export function createMachineService({ db }: { db: Db }) {
  // One entry: every group of the whole table. Each question (a Client's division, a DEN, an
  // AEN) is a filter over the groups, so no filter costs a second read of the table.
  const rollout = new VersionedCache<RolloutGroup[]>({ maxEntries: 1 });
  /**
   * The dashboard's answers as sent, per scope and filter: the dashboard asks the same few
   * questions over and over, and summing the groups and checking the answer cost more than the
   * read of the version.
   */
  const answers = new VersionedCache<JsonBody>({ maxEntries: 2000, maxWeight: 16 * 1024 * 1024, weigh: (body) => body.json.length });

  const rolloutVersion = async () => (await readTableVersions(db, ['curve_records'])).get('curve_records') ?? 0;

  async function groupsAt(user: PublicUser, version: number): Promise<RolloutGroup[]> {
    const scope = divisionScope(user, undefined);
    if (scope.none) return [];
    const groups = await rollout.get('all', version, async () => groupRollout(await readRolloutCells(db)));
    return scope.division === undefined ? groups : groups.filter((g) => g.division === scope.division);
  }

  const groupsFor = async (user: PublicUser) => groupsAt(user, await rolloutVersion());

  function filtersOf(groups: readonly RolloutGroup[], query: MachineFiltersQuery): MachineFiltersResponse {
    return {
      dens: distinctNames(groups.map((g) => g.den)),
      aens: distinctNames(groups.filter((g) => query.den === undefined || g.den === query.den).map((g) => g.aen)),
    };
  }

  function statsOf(groups: readonly RolloutGroup[], query: MachineStatsQuery): MachineStatsResponse {
    const chosen = groups.filter((g) => (query.den === undefined || g.den === query.den) && (query.aen === undefined || g.aen === query.aen));
    return { ...sumOf(chosen), breakdown: breakdownOf(chosen, query.den) };
  }

  /** One answer's bytes, made from the groups the user may see at the version read first (checked against `schema` once). */
  async function answerBody<Q extends { den?: string | undefined; aen?: string | undefined }, A>(
    name: string,
    user: PublicUser,
    query: Q,
    answer: (groups: readonly RolloutGroup[], query: Q) => A,
    schema: { parse(value: unknown): A },
  ): Promise<JsonBody> {
    const scope = divisionScope(user, undefined);
    const version = await rolloutVersion();
    const key = JSON.stringify([name, scope.none ? null : (scope.division ?? ''), query.den ?? null, query.aen ?? null]);
    return answers.get(key, version, async () => JsonBody.of(schema.parse(answer(await groupsAt(user, version), query))));
  }

  return {
    /** The DENs of what the user may see, and the AENs under the chosen DEN (all of them without one). */
    filters: async (user: PublicUser, query: MachineFiltersQuery): Promise<MachineFiltersResponse> => filtersOf(await groupsFor(user), query),

    /** The four totals of the curves under the chosen DEN and AEN, with the table beneath them. */
    stats: async (user: PublicUser, query: MachineStatsQuery): Promise<MachineStatsResponse> => statsOf(await groupsFor(user), query),

    /** The routes' answers: as `filters` and `stats`, as the bytes sent. */
    filtersBody: (user: PublicUser, query: MachineFiltersQuery) => answerBody('filters', user, query, filtersOf, machineFiltersResponseSchema),
    statsBody: (user: PublicUser, query: MachineStatsQuery) => answerBody('stats', user, query, statsOf, machineStatsResponseSchema),

    /**
     * The reports landing's cards: the owner's figures for the division (all = their sum) and the
     * per-curve count beside them. A Client's are their division's, whatever they ask.
     */
    async progress(user: PublicUser, query: MachineProgressQuery): Promise<MachineProgressResponse> {
      const scope = divisionScope(user, query.division === 'all' ? undefined : query.division);
      const division = scope.division ?? (scope.none ? (user.divisionAccess ?? 'none') : 'all');
      if (scope.none) return { division, summary: null, fromCurveRecords: null };
      const rows = (await listSummaryRows(db)).filter((r) => scope.division === undefined || r.division === scope.division);
      const groups = (await groupsFor(user)).filter((g) => scope.division === undefined || g.division === scope.division);
      const counted = sumOf(groups).totals;
      const summed = rows.reduce<RolloutFigures>(
        (sum, r) => {
          for (const field of ROLLOUT_FIELDS) sum[field] += r[field];
          return sum;
        },
        { scope: 0, foundationCompleted: 0, machinesInstalled: 0, machinesCommissioned: 0 },
      );
      const updatedAt = rows.reduce<Date | null>((max, r) => (max === null || r.updatedAt > max ? r.updatedAt : max), null);
      return {
        division,
        summary: rows.length === 0 ? null : { ...summed, updatedAt: updatedAt?.toISOString() ?? null },
        fromCurveRecords:
          groups.length === 0
            ? null
            : {
                scope: counted.scope,
                foundationCompleted: counted.foundationCompleted,
                machinesInstalled: counted.machinesInstalled,
                machinesCommissioned: counted.machinesCommissioned,
              },
      };
    },

    /** Every division's entered figures (owner only), the five divisions first, zeros where never entered. */
    async summaries(): Promise<MachineSummary[]> {
      const rows = await listSummaryRows(db);
      const known = new Set<string>(DIVISIONS);
      return [
        ...DIVISIONS.map((division) => presentSummary(division, rows.find((r) => r.division === division))),
        ...rows.filter((r) => !known.has(r.division)).map((r) => presentSummary(r.division, r)),
      ];
    },

    async summary(division: string): Promise<MachineSummary> {
      const rows = await listSummaryRows(db);
      return presentSummary(division, rows.find((r) => r.division === division));
    },

    /** The owner's new figures for a division (already checked to be possible), with the change in the audit log. */
    async updateSummary(actor: Actor, update: MachineSummaryUpdate): Promise<MachineSummary> {
      const { division, ...figures } = update;
      return db.transaction(async (tx) => {
        const before = await lockSummaryRow(tx, division);
        if (before && ROLLOUT_FIELDS.every((f) => before[f] === figures[f])) return presentSummary(division, before);
        const after = await upsertSummaryRow(tx, division, figures);
        await recordAudit(
          tx,
          auditOf(actor, {
            action: 'machine-summary.update',
            entity: 'machine_dashboard_summary',
            entityId: division,
            before: before ? { division, ...figuresOf(before) } : null,
            after: { division, ...figuresOf(after) },
          }),
        );
        return presentSummary(division, after);
      });
    },
  };
}

export type MachineService = ReturnType<typeof createMachineService>;
