/**
 * The due list and its counts (GET /api/schedule, GET /api/schedule/summary). Answers are
 * reused until an instance writes an inspection, a curve or a rollout record (change_counters)
 * or the business date moves on, so a zone's phones and officers asking the same question cost one query.
 */
import { addDays, dateInTimeZone } from '../../../common/rules/dates.js';
import { divisionScope } from '../../../common/rules/division-scope.js';
import type { PublicUser } from '../../../common/schemas/auth.js';
import {
  type ScheduleQuery,
  type ScheduleResponse,
  scheduleResponseSchema,
  type ScheduleSummaryQuery,
  type ScheduleSummaryResponse,
  scheduleSummaryResponseSchema,
} from '../../../common/schemas/schedule.js';
import type { Db } from '../../db/client.js';
import { readTableVersions, VersionedCache } from '../../db/versioned-cache.js';
import { JsonBody } from '../../json-body.js';
import { toScheduleEntry, toSectionSummary } from './presenter.js';
import { countScheduleBySection, listSchedule, recentSectionsOf, type ScheduleContext, type ScheduleScope } from './schedule-sql.js';

/** "The sections the technician worked in lately": their visits of the last 30 days. */
const RECENT_DAYS = 30;
const RECENT_SECTIONS_MAX = 5;

export interface ScheduleDeps {
  db: Db;
  appTimeZone: string;
  cofAlertThreshold: number;
  now: () => Date;
}

export function createScheduleService(deps: ScheduleDeps) {
  const { db } = deps;
  /** A page as made: checked against the contract once, and its bytes for callers without own sections. */
  interface Page {
    total: number;
    curves: ScheduleResponse['curves'];
    body: JsonBody;
  }
  const pages = new VersionedCache<Page>({ maxEntries: 500, maxWeight: 64 * 1024 * 1024, weigh: (page) => page.body.json.length });
  const summaries = new VersionedCache<ScheduleSummaryResponse>({ maxEntries: 100 });
  /** A technician's recent sections and their answers (a page with those sections), until the next visit anywhere. */
  const recentSectionsCache = new VersionedCache<string[]>({ maxEntries: 5000 });
  const technicianBodies = new VersionedCache<JsonBody>({ maxEntries: 2000, maxWeight: 32 * 1024 * 1024, weigh: (body) => body.json.length });

  function context(): ScheduleContext {
    return { today: dateInTimeZone(deps.now(), deps.appTimeZone), cofAlertThreshold: deps.cofAlertThreshold };
  }

  /**
   * Numbers that move with each table the schedule reads: the cache's version is the
   * inspections' counter; the curves' and the rollout records' counters and the date are part
   * of the key.
   */
  async function versions() {
    const v = await readTableVersions(db, ['inspection_logs', 'consolidated_curve_details', 'curve_records']);
    return {
      inspections: v.get('inspection_logs') ?? 0,
      register: `${v.get('consolidated_curve_details') ?? 0}.${v.get('curve_records') ?? 0}`,
    };
  }

  function scopeOf(user: PublicUser, requested: string | undefined, section: string | undefined): ScheduleScope | null {
    const scope = divisionScope(user, requested);
    return scope.none ? null : { division: scope.division, section };
  }

  function answerOf(ctx: ScheduleContext, total: number, curves: ScheduleResponse['curves'], recentSections: string[]): ScheduleResponse {
    return { asOf: ctx.today, timeZone: deps.appTimeZone, cofAlertThreshold: ctx.cofAlertThreshold, total, curves, recentSections };
  }

  async function list(user: PublicUser, query: ScheduleQuery): Promise<JsonBody> {
    const ctx = context();
    const scope = scopeOf(user, query.division, query.section);
    const v = await versions();
    const recentSections =
      user.role === 'Technician'
        ? await recentSectionsCache.get(`${user.employeeId}\u0000${ctx.today}`, v.inspections, () =>
            recentSectionsOf(db, user.employeeId, addDays(ctx.today, -RECENT_DAYS), RECENT_SECTIONS_MAX),
          )
        : [];
    if (!scope) return JsonBody.of(answerOf(ctx, 0, [], recentSections));
    const key = JSON.stringify([scope, query.status, query.kind, query.limit, query.offset, ctx, v.register]);
    const page = await pages.get(key, v.inspections, async () => {
      const { rows, total } = await listSchedule(db, scope, ctx, {
        status: query.status,
        kind: query.kind,
        order: 'urgency',
        page: { limit: query.limit, offset: query.offset },
      });
      const answer = scheduleResponseSchema.parse(answerOf(ctx, total, rows.map(toScheduleEntry), []));
      return { total, curves: answer.curves, body: JsonBody.of(answer) };
    });
    // Only a technician's answer carries their own sections: everyone else shares the page's bytes.
    if (recentSections.length === 0) return page.body;
    return technicianBodies.get(`${key}\u0000${user.employeeId}`, v.inspections, async () =>
      JsonBody.of(answerOf(ctx, page.total, page.curves, recentSections)),
    );
  }

  async function summary(user: PublicUser, query: ScheduleSummaryQuery): Promise<ScheduleSummaryResponse> {
    const ctx = context();
    const scope = scopeOf(user, query.division, query.section);
    if (!scope) return { asOf: ctx.today, cofAlertThreshold: ctx.cofAlertThreshold, sections: [] };
    const v = await versions();
    return summaries.get(JSON.stringify([scope, ctx, v.register]), v.inspections, async () =>
      scheduleSummaryResponseSchema.parse({
        asOf: ctx.today,
        cofAlertThreshold: ctx.cofAlertThreshold,
        sections: (await countScheduleBySection(db, scope, ctx)).map(toSectionSummary),
      }),
    );
  }

  return { context, list, summary };
}

export type ScheduleService = ReturnType<typeof createScheduleService>;
