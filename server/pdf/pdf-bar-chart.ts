/**
 * A bar and line chart over categories (periods, sections, technicians), drawn as vectors into
 * the PDF like pdf-chart.ts's readings chart: a value axis with a light grid, bars grouped or
 * stacked per category, lines joining points over them, a dashed reference line (a threshold),
 * a legend under the title, and the category labels under the axis (thinned to fit).
 */
import type { ChartBox } from './pdf-chart.js';
import { COLORS, type PdfReport } from './pdf-report.js';

/** Distinct in colour and still apart in grey. */
export const SERIES_COLORS = ['#1f5fa8', '#e08a1e', '#7a9cc6', '#b3261e', '#2e7d4f'] as const;

export interface ChartSeries {
  name: string;
  color: string;
  /** One per category; null draws nothing there (a period with no reading). */
  values: readonly (number | null)[];
}

export interface BarChart {
  title: string;
  categories: readonly string[];
  bars?: readonly ChartSeries[];
  /** Bars of one category on top of each other (parts of a whole) rather than side by side. */
  stacked?: boolean;
  lines?: readonly ChartSeries[];
  reference?: { value: number; label: string };
  /** The axis's top, e.g. 1 for shares; otherwise a round number above the highest value. */
  max?: number;
  /** An axis label: "40%", "0.25", "120". */
  format: (value: number) => string;
  /** Counts: the grid steps by whole numbers. */
  whole?: boolean;
}

const AXIS_LABEL_WIDTH = 30;
const CATEGORY_LABEL_HEIGHT = 12;
const LEGEND_HEIGHT = 11;
const TICKS = 4;
const MAX_BAR_WIDTH = 56;

/** 1, 2, 2.5 or 5 times a power of ten: the smallest such step that covers `top` in TICKS steps. */
function niceStep(top: number): number {
  const rough = top / TICKS;
  const power = 10 ** Math.floor(Math.log10(rough));
  return ([1, 2, 2.5, 5, 10].find((m) => m * power >= rough) ?? 10) * power;
}

/** The value axis: its top and the step between its grid lines. */
function axisOf(chart: BarChart): { top: number; step: number } {
  if (chart.max !== undefined) return { top: chart.max, step: chart.max / TICKS };
  const bars = chart.bars ?? [];
  const barTops = chart.categories.map((_, i) => {
    const values = bars.map((s) => s.values[i] ?? 0);
    return chart.stacked ? values.reduce((a, b) => a + b, 0) : Math.max(0, ...values);
  });
  const lineValues = (chart.lines ?? []).flatMap((s) => s.values.filter((v): v is number => v !== null));
  const highest = Math.max(0, ...barTops, ...lineValues, chart.reference?.value ?? 0);
  if (highest === 0) return chart.whole ? { top: TICKS, step: 1 } : { top: 1, step: 1 / TICKS };
  // A count's grid never falls between two whole numbers.
  const step = chart.whole ? Math.max(1, niceStep(highest)) : niceStep(highest);
  return { top: Math.ceil((highest * 1.0001) / step) * step, step };
}

export function drawBarChart(report: PdfReport, box: ChartBox, chart: BarChart): void {
  const { doc } = report;
  const titleStyle = { size: 9, weight: 'bold', width: box.width } as const;
  report.text(chart.title, box.x, box.y, titleStyle);
  const titleHeight = report.measure(chart.title, titleStyle);
  const legendY = box.y + titleHeight + 2;
  drawLegend(report, box.x + AXIS_LABEL_WIDTH, legendY, [...(chart.bars ?? []), ...(chart.lines ?? [])], chart.reference);
  const plot = {
    x: box.x + AXIS_LABEL_WIDTH,
    y: legendY + LEGEND_HEIGHT + 6,
    width: box.width - AXIS_LABEL_WIDTH - 4,
    height: box.height - titleHeight - LEGEND_HEIGHT - CATEGORY_LABEL_HEIGHT - 10,
  };
  const { top, step } = axisOf(chart);
  const yOf = (value: number) => plot.y + plot.height - (Math.min(value, top) / top) * plot.height;
  const count = Math.max(1, chart.categories.length);
  const slot = plot.width / count;
  const centreOf = (i: number) => plot.x + slot * (i + 0.5);

  doc.save();
  for (let tick = 0; tick <= top + step / 1000; tick += step) {
    const y = yOf(tick);
    doc.moveTo(plot.x, y).lineTo(plot.x + plot.width, y).lineWidth(0.3).strokeColor(COLORS.rule).stroke();
    report.text(chart.format(tick), box.x, y - 4, { size: 6.5, color: COLORS.muted, width: AXIS_LABEL_WIDTH - 3, align: 'right' });
  }
  const bars = chart.bars ?? [];
  if (bars.length > 0) {
    // Few categories would make slabs: a bar stays about as wide as a reader's eye expects.
    const groupWidth = Math.min(slot * 0.7, MAX_BAR_WIDTH * (chart.stacked ? 1 : bars.length));
    const barWidth = chart.stacked ? groupWidth : groupWidth / bars.length;
    chart.categories.forEach((_, i) => {
      let base = 0;
      bars.forEach((series, s) => {
        const value = series.values[i];
        if (value === null || value === undefined || value <= 0) return;
        const x = centreOf(i) - groupWidth / 2 + (chart.stacked ? 0 : s * barWidth);
        const from = chart.stacked ? base : 0;
        const y = yOf(from + value);
        doc.rect(x, y, Math.max(barWidth - 0.6, 0.4), yOf(from) - y).fill(series.color);
        base += value;
      });
    });
  }
  for (const series of chart.lines ?? []) {
    let drawing = false;
    series.values.forEach((value, i) => {
      if (value === null) {
        drawing = false;
        return;
      }
      if (drawing) doc.lineTo(centreOf(i), yOf(value));
      else doc.moveTo(centreOf(i), yOf(value));
      drawing = true;
    });
    doc.lineWidth(1.4).strokeColor(series.color).stroke();
    series.values.forEach((value, i) => {
      if (value !== null) doc.circle(centreOf(i), yOf(value), 1.8).fill(series.color);
    });
  }
  if (chart.reference) {
    const y = yOf(chart.reference.value);
    doc.moveTo(plot.x, y).lineTo(plot.x + plot.width, y).lineWidth(0.8).dash(3, { space: 2 }).strokeColor(COLORS.alert).stroke().undash();
  }
  doc.moveTo(plot.x, plot.y).lineTo(plot.x, plot.y + plot.height).lineTo(plot.x + plot.width, plot.y + plot.height).lineWidth(0.6).strokeColor(COLORS.muted).stroke();
  doc.restore();
  drawCategoryLabels(report, plot, chart.categories, slot);
}

/** Every label when they fit, else every n-th, each centred under its slot and kept within the plot. */
function drawCategoryLabels(report: PdfReport, plot: { x: number; y: number; width: number; height: number }, categories: readonly string[], slot: number): void {
  const style = { size: 6.5, color: COLORS.muted } as const;
  const widths = categories.map((c) => report.widthOf(c, style));
  const every = Math.max(1, Math.ceil((Math.max(0, ...widths) + 4) / slot));
  let lastEnd = -Infinity;
  categories.forEach((label, i) => {
    const width = widths[i] ?? 0;
    if (i % every !== 0) return;
    const x = Math.min(Math.max(plot.x + slot * (i + 0.5) - width / 2, plot.x), plot.x + plot.width - width);
    // One pulled in from an edge could meet its neighbour: it gives way.
    if (x < lastEnd + 4) return;
    report.text(label, x, plot.y + plot.height + 3, { ...style, width: width + 1 });
    lastEnd = x + width;
  });
}

function drawLegend(report: PdfReport, x: number, y: number, series: readonly ChartSeries[], reference: BarChart['reference']): void {
  const { doc } = report;
  const size = 7;
  let at = x;
  for (const s of series) {
    doc.save().rect(at, y + 1.5, 7, 7).fill(s.color).restore();
    report.text(s.name, at + 10, y, { size, color: COLORS.ink });
    at += 10 + report.widthOf(s.name, { size }) + 12;
  }
  if (reference) {
    doc.save().moveTo(at, y + 5).lineTo(at + 12, y + 5).lineWidth(0.8).dash(3, { space: 2 }).strokeColor(COLORS.alert).stroke().undash().restore();
    report.text(reference.label, at + 15, y, { size, color: COLORS.ink });
  }
}
