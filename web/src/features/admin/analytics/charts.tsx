import { AxisBottom, AxisLeft, AxisTop } from '@visx/axis';
import { GridRows } from '@visx/grid';
import { Group } from '@visx/group';
import { scaleBand, scaleLinear } from '@visx/scale';
import { Bar, LinePath } from '@visx/shape';
import { useId } from 'react';
import { useNavigate } from 'react-router';
import { numberText, percentText } from './analytics-texts.js';
import { useContainerWidth } from './use-container-width.js';

/**
 * The dashboard's two charts, drawn with visx to the width of their card (a phone's 360 px
 * to a desk's 1280 px): figures per period (lines, grouped or stacked bars, a threshold), and
 * rows ranked on a horizontal axis (technicians, a Pareto of parts). Each is one SVG image
 * with a title and a description; the card's table says the same with links a keyboard and
 * a screen reader reach, so the marks' own links (a pointer's shortcut to the records) stay
 * out of the tab order.
 */

/** Colours with at least 3:1 on white, told apart by the legend and the table too. */
export const COLOURS = {
  service: '#1e40af',
  cof: '#b45309',
  broken: '#b45309',
  stolen: '#7e22ce',
  notWorking: '#334155',
  threshold: '#b91c1c',
  p90: '#7e22ce',
} as const;

export interface Series {
  key: string;
  label: string;
  colour: string;
  values: readonly (number | null)[];
}

/** Where a mark leads: the records behind it, or nowhere (a Client's chart). */
export type MarkHref = (index: number, seriesKey: string) => string | null;

const AXIS_TEXT = { fill: '#1e293b', fontSize: 12 } as const;
const AXIS_COLOUR = '#475569';

function Legend({ items }: { items: readonly { key: string; label: string; colour: string; dashed?: boolean }[] }) {
  return (
    <ul className="mb-1 flex flex-wrap gap-x-4 gap-y-1 text-sm text-slate-800" aria-hidden="true">
      {items.map((item) => (
        <li key={item.key} className="flex items-center gap-1.5">
          <span className="inline-block h-1 w-5" style={{ background: item.dashed ? `repeating-linear-gradient(90deg, ${item.colour} 0 5px, transparent 5px 8px)` : item.colour, height: item.dashed ? 2 : 10 }} />
          {item.label}
        </li>
      ))}
    </ul>
  );
}

/**
 * A pointer's shortcut to the records behind a mark. Not a link: an image's parts are not
 * interactive for assistive technology (axe: nested-interactive); the table's links are theirs.
 */
function MarkLink({ href, children }: { href: string | null; children: React.ReactNode }) {
  const navigate = useNavigate();
  if (href === null) return <>{children}</>;
  return (
    <g data-href={href} onClick={() => void navigate(href)} className="cursor-pointer hover:opacity-80">
      {children}
    </g>
  );
}

/** A count axis' ticks: whole numbers only (no 0.5 of a visit). */
const wholeTicks = (scale: { ticks: (count?: number) => number[] }, count: number) => scale.ticks(count).filter(Number.isInteger);

/** Every n-th label, so that the axis' names never overlap on a phone. */
const everyNth = (labels: readonly string[], room: number, each: number) => {
  const step = Math.max(1, Math.ceil(labels.length / Math.max(1, Math.floor(room / each))));
  return labels.filter((_, i) => i % step === 0);
};

function ChartFrame({ title, description, width, height, children }: { title: string; description: string; width: number; height: number; children: React.ReactNode }) {
  const id = useId();
  return (
    <svg role="img" aria-labelledby={`${id}-title`} aria-describedby={`${id}-desc`} width={width} height={height} className="block max-w-full">
      <title id={`${id}-title`}>{title}</title>
      <desc id={`${id}-desc`}>{description}</desc>
      {children}
    </svg>
  );
}

export interface PeriodChartProps {
  title: string;
  description: string;
  labels: readonly string[];
  series: readonly Series[];
  kind: 'line' | 'bars' | 'stacked';
  formatValue: (n: number) => string;
  /** The axis' top at least this (1 for shares). */
  maxAtLeast?: number;
  threshold?: { value: number; label: string };
  hrefOf?: MarkHref;
  height?: number;
  /** Counts: no tick between two whole numbers. */
  counts?: boolean;
}

// Room on the right for the last period's name, centred under its mark.
const MARGIN = { top: 8, right: 28, bottom: 28, left: 48 };

export function PeriodChart({ title, description, labels, series, kind, formatValue, maxAtLeast = 0, threshold, hrefOf, height = 220, counts = false }: PeriodChartProps) {
  const { ref, width } = useContainerWidth<HTMLDivElement>();
  const innerWidth = Math.max(0, width - MARGIN.left - MARGIN.right);
  const innerHeight = height - MARGIN.top - MARGIN.bottom;
  const totals = labels.map((_, i) => series.reduce((sum, s) => sum + (s.values[i] ?? 0), 0));
  const highest = Math.max(maxAtLeast, threshold?.value ?? 0, ...(kind === 'stacked' ? totals : series.flatMap((s) => s.values.map((v) => v ?? 0))));
  const y = scaleLinear<number>({ domain: [0, highest > 0 ? highest : 1], range: [innerHeight, 0], nice: true });
  const x = scaleBand<string>({ domain: labels.map((_, i) => String(i)), range: [0, innerWidth], padding: kind === 'line' ? 0 : 0.2 });
  const group = scaleBand<string>({ domain: series.map((s) => s.key), range: [0, x.bandwidth()], padding: 0.1 });
  const centre = (i: number) => (x(String(i)) ?? 0) + x.bandwidth() / 2;
  const shown = new Set(everyNth(labels.map((_, i) => String(i)), innerWidth, 56));

  return (
    <div ref={ref} className="w-full">
      <Legend items={[...series.map((s) => ({ key: s.key, label: s.label, colour: s.colour })), ...(threshold ? [{ key: 'threshold', label: threshold.label, colour: COLOURS.threshold, dashed: true }] : [])]} />
      {width > 0 ? (
        <ChartFrame title={title} description={description} width={width} height={height}>
          <Group left={MARGIN.left} top={MARGIN.top}>
            <GridRows scale={y} width={innerWidth} numTicks={4} stroke="#cbd5e1" />
            {kind === 'line'
              ? series.map((s) => (
                  <g key={s.key}>
                    <LinePath<number | null>
                      data={[...s.values]}
                      x={(_, i) => centre(i)}
                      y={(v) => y(v ?? 0)}
                      defined={(v) => v !== null}
                      stroke={s.colour}
                      strokeWidth={2.5}
                    />
                    {s.values.map((v, i) =>
                      v === null ? null : (
                        <MarkLink key={i} href={hrefOf?.(i, s.key) ?? null}>
                          <circle cx={centre(i)} cy={y(v)} r={labels.length > 30 ? 3 : 5} fill={s.colour} stroke="#fff" strokeWidth={1.5} />
                        </MarkLink>
                      ),
                    )}
                  </g>
                ))
              : labels.map((_, i) => {
                  let stackedTop = 0;
                  return series.map((s) => {
                    const v = s.values[i] ?? 0;
                    const barX = kind === 'stacked' ? (x(String(i)) ?? 0) : (x(String(i)) ?? 0) + (group(s.key) ?? 0);
                    const barWidth = kind === 'stacked' ? x.bandwidth() : group.bandwidth();
                    const top = y(stackedTop + v);
                    const barHeight = y(stackedTop) - top;
                    if (kind === 'stacked') stackedTop += v;
                    return (
                      <MarkLink key={`${s.key}-${i}`} href={hrefOf?.(i, s.key) ?? null}>
                        <Bar x={barX} y={top} width={Math.max(1, barWidth)} height={Math.max(0, barHeight)} fill={s.colour} stroke="#fff" strokeWidth={kind === 'stacked' ? 1 : 0} />
                      </MarkLink>
                    );
                  });
                })}
            {threshold ? <line x1={0} x2={innerWidth} y1={y(threshold.value)} y2={y(threshold.value)} stroke={COLOURS.threshold} strokeWidth={2} strokeDasharray="6 4" /> : null}
            <AxisLeft scale={y} numTicks={4} tickValues={counts ? wholeTicks(y, 4) : undefined} tickFormat={(v) => formatValue(Number(v))} stroke={AXIS_COLOUR} tickStroke={AXIS_COLOUR} tickLabelProps={AXIS_TEXT} />
            <AxisBottom
              top={innerHeight}
              scale={x}
              tickValues={[...shown]}
              tickFormat={(i) => labels[Number(i)] ?? ''}
              stroke={AXIS_COLOUR}
              tickStroke={AXIS_COLOUR}
              tickLabelProps={{ ...AXIS_TEXT, textAnchor: 'middle' }}
            />
          </Group>
        </ChartFrame>
      ) : null}
    </div>
  );
}

export interface RankChartProps {
  title: string;
  description: string;
  rows: readonly string[];
  /** Stacked along each row. */
  series: readonly Series[];
  /** 0-1 per row, drawn as a line on its own top axis: a Pareto's running share. */
  cumulative?: { label: string; values: readonly number[] };
  hrefOf?: MarkHref;
}

const ROW_HEIGHT = 28;

export function RankChart({ title, description, rows, series, cumulative, hrefOf }: RankChartProps) {
  const { ref, width } = useContainerWidth<HTMLDivElement>();
  // A name column of its own on a desk; on a phone the names take a third.
  const left = Math.min(160, Math.max(90, Math.round(width * 0.34)));
  const margin = { top: cumulative ? 28 : 8, right: 16, bottom: 28, left };
  const height = margin.top + margin.bottom + rows.length * ROW_HEIGHT;
  const innerWidth = Math.max(0, width - margin.left - margin.right);
  const innerHeight = rows.length * ROW_HEIGHT;
  const totals = rows.map((_, i) => series.reduce((sum, s) => sum + (s.values[i] ?? 0), 0));
  const x = scaleLinear<number>({ domain: [0, Math.max(1, ...totals)], range: [0, innerWidth], nice: true });
  const share = scaleLinear<number>({ domain: [0, 1], range: [0, innerWidth] });
  const y = scaleBand<string>({ domain: rows.map((_, i) => String(i)), range: [0, innerHeight], padding: 0.2 });
  const maxChars = Math.floor(left / 7.5);
  const shortName = (name: string) => (name.length > maxChars ? `${name.slice(0, maxChars - 1)}…` : name);

  return (
    <div ref={ref} className="w-full">
      <Legend
        items={[
          ...series.map((s) => ({ key: s.key, label: s.label, colour: s.colour })),
          ...(cumulative ? [{ key: 'cumulative', label: cumulative.label, colour: COLOURS.threshold, dashed: false }] : []),
        ]}
      />
      {width > 0 ? (
        <ChartFrame title={title} description={description} width={width} height={height}>
          <Group left={margin.left} top={margin.top}>
            {rows.map((_, i) => {
              let start = 0;
              return series.map((s) => {
                const v = s.values[i] ?? 0;
                const barX = x(start);
                start += v;
                return (
                  <MarkLink key={`${s.key}-${i}`} href={hrefOf?.(i, s.key) ?? null}>
                    <Bar x={barX} y={y(String(i)) ?? 0} width={Math.max(0, x(start) - barX)} height={y.bandwidth()} fill={s.colour} stroke="#fff" strokeWidth={1} />
                  </MarkLink>
                );
              });
            })}
            {cumulative ? (
              <>
                <LinePath<number>
                  data={[...cumulative.values]}
                  x={(v) => share(v)}
                  y={(_, i) => (y(String(i)) ?? 0) + y.bandwidth() / 2}
                  stroke={COLOURS.threshold}
                  strokeWidth={2}
                />
                {cumulative.values.map((v, i) => (
                  <circle key={i} cx={share(v)} cy={(y(String(i)) ?? 0) + y.bandwidth() / 2} r={3.5} fill={COLOURS.threshold} />
                ))}
                <AxisTop scale={share} numTicks={4} tickFormat={(v) => percentText(Number(v))} stroke={AXIS_COLOUR} tickStroke={AXIS_COLOUR} tickLabelProps={{ ...AXIS_TEXT, textAnchor: 'middle' }} />
              </>
            ) : null}
            <AxisLeft
              scale={y}
              tickFormat={(i) => shortName(rows[Number(i)] ?? '')}
              stroke={AXIS_COLOUR}
              tickStroke={AXIS_COLOUR}
              tickLabelProps={{ ...AXIS_TEXT, textAnchor: 'end', dy: '0.33em' }}
            />
            <AxisBottom
              top={innerHeight}
              scale={x}
              tickValues={wholeTicks(x, Math.max(2, Math.floor(innerWidth / 60)))}
              tickFormat={(v) => numberText(Number(v))}
              stroke={AXIS_COLOUR} tickStroke={AXIS_COLOUR} tickLabelProps={{ ...AXIS_TEXT, textAnchor: 'middle' }} />
          </Group>
        </ChartFrame>
      ) : null}
    </div>
  );
}
