import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { ANALYTICS_GRAINS } from '../../../../../common/rules/analytics.js';
import { type AnalyticsDashboard, analyticsDashboardSchema } from '../../../../../common/schemas/analytics.js';
import type { PublicUser } from '../../../../../common/schemas/auth.js';
import { Button } from '../../../components/ui/button.js';
import { Card, CardDescription, CardTitle } from '../../../components/ui/card.js';
import { FilterSelect } from '../../../components/ui/filter-select.js';
import { Input } from '../../../components/ui/input.js';
import { Label } from '../../../components/ui/label.js';
import { failureText } from '../../../lib/api-failure.js';
import { ScopeFilterFields } from '../register/index.js';
import { type AnalyticsReportBody, ReportProgress, useReportJob } from '../reports/index.js';
import {
  type AnalyticsFilters,
  analyticsFiltersFromParams,
  analyticsRequest,
  dashboardUrl,
  defaultGrainOf,
  exportUrl,
  NO_ANALYTICS_FILTERS,
  PERIOD_PRESETS,
  recordsViewSearch,
  todayHere,
  withAnalyticsFilters,
} from './analytics-query.js';
import { periodLabel, rangeText, useAnalyticsTexts } from './analytics-texts.js';
import type { Drill } from './section-parts.js';
import { ComplianceSection, FieldWorkSection, FrictionSection, GreaseSection, HeadlineTiles, MachinesSection } from './sections.js';

const parseDashboard = (body: unknown): AnalyticsDashboard => analyticsDashboardSchema.parse(body);

/**
 * Analytics (issue 26): are the curves serviced on time, is friction under control, which
 * machines and parts keep failing, who does the field work, and is it getting better. The
 * filters live in the URL next to `view`, so a link reproduces the view. A Client reads their
 * own division (the server imposes it whatever is asked) and cannot open the records view, so
 * their figures lead nowhere; an Admin's open the records behind them.
 */
export function AnalyticsView({ user }: { user: PublicUser }) {
  const T = useAnalyticsTexts();
  const isClient = user.role === 'Client';
  const [params, setParams] = useSearchParams();
  const fromUrl = useMemo(() => analyticsFiltersFromParams(params), [params]);
  const filters: AnalyticsFilters = isClient ? { ...fromUrl, division: user.divisionAccess ?? '' } : fromUrl;
  const today = todayHere();
  const request = analyticsRequest(filters, today);
  const apply = (next: AnalyticsFilters) => setParams(withAnalyticsFilters(params, isClient ? { ...next, division: '' } : next), { replace: true });

  return (
    <div className="flex min-w-0 flex-col gap-4">
      <AnalyticsFilterForm filters={filters} today={today} divisionFixed={isClient ? (user.divisionAccess ?? T.noDivision) : null} onApply={apply} />
      <AnalyticsPdf request={request} />
      <AnalyticsFigures request={request} isAdmin={user.role === 'Admin'} />
    </div>
  );
}

function AnalyticsFilterForm({
  filters,
  today,
  divisionFixed,
  onApply,
}: {
  filters: AnalyticsFilters;
  today: string;
  /** A Client's division, shown instead of the division list; null for Admins. */
  divisionFixed: string | null;
  onApply: (next: AnalyticsFilters) => void;
}) {
  const T = useAnalyticsTexts();
  const set = (changes: Partial<AnalyticsFilters>) => onApply({ ...filters, ...changes });
  const choosePeriod = (value: string) => {
    const period = PERIOD_PRESETS.find((p) => p === value) ?? NO_ANALYTICS_FILTERS.period;
    // Custom starts from the range in view, so the dates are there to adjust.
    const start = period === 'custom' && filters.period !== 'custom' ? analyticsRequest(filters, today) : { from: filters.from, to: filters.to };
    set({ period, by: defaultGrainOf(period), from: start.from ?? '', to: start.to ?? '' });
  };
  const cleared = divisionFixed === null ? NO_ANALYTICS_FILTERS : { ...NO_ANALYTICS_FILTERS, division: filters.division };
  const canClear = JSON.stringify(filters) !== JSON.stringify(cleared);

  return (
    <Card aria-labelledby="analytics-filters-title">
      <CardTitle id="analytics-filters-title">{T.filters}</CardTitle>
      <form role="search" aria-labelledby="analytics-filters-title" onSubmit={(e) => e.preventDefault()} className="mt-3 grid grid-cols-2 gap-3 lg:grid-cols-5">
        <ScopeFilterFields idPrefix="analytics" scope={filters} divisionFixed={divisionFixed} onChange={set} />
        <FilterSelect
          id="analytics-period"
          label={T.period}
          value={filters.period}
          onChange={choosePeriod}
          all={{ value: '4w', label: T.periods['4w'] }}
          options={PERIOD_PRESETS.filter((p) => p !== '4w').map((p) => ({ value: p, label: T.periods[p] }))}
        />
        <FilterSelect
          id="analytics-grain"
          label={T.grain}
          value={filters.by}
          onChange={(value) => set({ by: ANALYTICS_GRAINS.find((g) => g === value) ?? defaultGrainOf(filters.period) })}
          all={{ value: 'week', label: T.grains.week }}
          options={ANALYTICS_GRAINS.filter((g) => g !== 'week').map((g) => ({ value: g, label: T.grains[g] }))}
        />
        {filters.period === 'custom' ? (
          <>
            <div>
              <Label htmlFor="analytics-from">{T.from}</Label>
              <Input id="analytics-from" type="date" className="mt-1" value={filters.from} max={filters.to || today} onChange={(e) => set({ from: e.target.value })} />
            </div>
            <div>
              <Label htmlFor="analytics-to">{T.to}</Label>
              <Input id="analytics-to" type="date" className="mt-1" value={filters.to} min={filters.from || undefined} max={today} onChange={(e) => set({ to: e.target.value })} />
            </div>
          </>
        ) : null}
        <div className="col-span-2 flex items-end lg:col-span-1">
          <Button variant="outline" disabled={!canClear} onClick={() => onApply(cleared)} className="whitespace-nowrap">
            {T.clearFilters}
          </Button>
        </div>
      </form>
    </Card>
  );
}

/** The whole dashboard as a PDF: a report job like the others, followed with its progress, then downloaded. */
function AnalyticsPdf({ request }: { request: AnalyticsReportBody }) {
  const T = useAnalyticsTexts();
  const job = useReportJob('analytics-pdf', { doneTitle: T.pdfDoneTitle, doneDescription: T.pdfDone, failed: T.pdfFailed });
  return (
    <div className="flex flex-col gap-2">
      <Button variant="outline" className="self-start" disabled={job.working} onClick={() => job.generate(request)}>
        {T.downloadPdf}
      </Button>
      {job.state.phase === 'working' ? <ReportProgress id="analytics-pdf" progress={job.state.progress} recordCount={job.state.recordCount} /> : null}
    </div>
  );
}

/** Whether the range holds nothing to draw: no visit, no reading, no fault, no action. */
function isEmpty(dashboard: AnalyticsDashboard): boolean {
  const { summary } = dashboard;
  return (
    summary.visits.service + summary.visits.cof === 0 &&
    summary.actions.open + summary.actions.openedInRange + summary.actions.closedInRange === 0 &&
    dashboard.compliance.bySection.length === 0
  );
}

function AnalyticsFigures({ request, isAdmin }: { request: AnalyticsReportBody; isAdmin: boolean }) {
  const T = useAnalyticsTexts();
  const dashboard = useQuery({ queryKey: [dashboardUrl(request)], select: parseDashboard, staleTime: 0, placeholderData: (previous) => previous });

  if (dashboard.isPending) return <p className="text-base text-slate-700">{T.loading}</p>;
  if (dashboard.isError) {
    return (
      <Card className="flex flex-col items-start gap-3">
        <p role="alert" className="text-base font-medium text-red-700">
          {failureText(T.loadFailed, dashboard.error)}
        </p>
        <Button variant="outline" size="sm" onClick={() => void dashboard.refetch()}>
          {T.tryAgain}
        </Button>
      </Card>
    );
  }

  const data = dashboard.data;
  const { scope } = data;
  const labels = data.periods.map((p) => periodLabel(p.start, scope.by));
  const drill: Drill = isAdmin ? (patch) => recordsViewSearch({ from: scope.from, to: scope.to, division: scope.division, section: scope.section, ...patch }) : null;
  const excelUrl = (chart: Parameters<typeof exportUrl>[0]) => exportUrl(chart, request);
  const actionsSearch = `/admin?${new URLSearchParams({ view: 'actions', ...(scope.division ? { division: scope.division } : {}) }).toString()}`;
  const sectionProps = { dashboard: data, labels, drill, excelUrl };

  return (
    <div className="flex min-w-0 flex-col gap-4" aria-busy={dashboard.isFetching || undefined}>
      <p aria-live="polite" className="text-base font-medium text-slate-800">
        {[rangeText(scope.from, scope.to), scope.division ?? T.everywhere, scope.section, scope.sse].filter(Boolean).join(' · ')}
      </p>
      {isEmpty(data) ? (
        <Card>
          <CardDescription className="text-base">{T.empty}</CardDescription>
        </Card>
      ) : (
        <>
          <HeadlineTiles summary={data.summary} threshold={data.cofAlertThreshold} />
          <ComplianceSection {...sectionProps} />
          <FrictionSection {...sectionProps} />
          <MachinesSection {...sectionProps} actionsSearch={actionsSearch} />
          <GreaseSection {...sectionProps} />
          <FieldWorkSection {...sectionProps} />
        </>
      )}
    </div>
  );
}
