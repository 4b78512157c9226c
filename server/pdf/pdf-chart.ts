/**
 * A small line chart of readings over time, drawn as vectors into the PDF (sharp at any zoom,
 * a few hundred bytes each): one curve's CoF readings by date, the alert threshold as a dashed
 * line, readings above it in the alert colour.
 */
import { isCofHigh } from '../../common/rules/schedule.js';
import { COLORS, type PdfReport } from './pdf-report.js';

export interface ChartPoint {
  /** YYYY-MM-DD */
  date: string;
  value: number;
}

export interface ChartBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const dayOf = (date: string) => Date.parse(`${date}T00:00:00Z`) / DAY_MS;

export function drawReadingsChart(report: PdfReport, box: ChartBox, chart: { title: string; points: readonly ChartPoint[]; threshold: number }): void {
  const { doc } = report;
  const titleStyle = { size: 8, weight: 'bold', width: box.width } as const;
  report.text(chart.title, box.x, box.y, titleStyle);
  const titleHeight = report.measure(chart.title, titleStyle);
  const axisLabelWidth = 24;
  const plot = { x: box.x + axisLabelWidth, y: box.y + titleHeight + 4, width: box.width - axisLabelWidth - 4, height: box.height - titleHeight - 18 };
  const values = chart.points.map((p) => p.value);
  const top = Math.max(0.4, Math.ceil(Math.max(chart.threshold, ...values) * 10 + 0.5) / 10);
  const yOf = (value: number) => plot.y + plot.height - (value / top) * plot.height;
  const days = chart.points.map((p) => dayOf(p.date));
  const first = Math.min(...days);
  const last = Math.max(...days);
  const span = Math.max(1, last - first);
  const xOf = (day: number) => (last === first ? plot.x + plot.width / 2 : plot.x + ((day - first) / span) * plot.width);

  doc.save();
  // Grid and value labels every 0.1.
  for (let tick = 0; tick <= top + 1e-9; tick += 0.1) {
    const y = yOf(tick);
    doc.moveTo(plot.x, y).lineTo(plot.x + plot.width, y).lineWidth(0.3).strokeColor(COLORS.rule).stroke();
    report.text(tick.toFixed(1), box.x, y - 4, { size: 6, color: COLORS.muted, width: axisLabelWidth - 3, align: 'right' });
  }
  doc.rect(plot.x, plot.y, plot.width, plot.height).lineWidth(0.5).strokeColor(COLORS.muted).stroke();
  // The threshold.
  const limitY = yOf(chart.threshold);
  doc.moveTo(plot.x, limitY).lineTo(plot.x + plot.width, limitY).lineWidth(0.8).dash(3, { space: 2 }).strokeColor(COLORS.alert).stroke().undash();
  // The readings, oldest to newest.
  const ordered = chart.points.map((p, i) => ({ ...p, day: days[i]! })).sort((a, b) => a.day - b.day);
  if (ordered.length > 1) {
    ordered.forEach((p, i) => (i === 0 ? doc.moveTo(xOf(p.day), yOf(p.value)) : doc.lineTo(xOf(p.day), yOf(p.value))));
    doc.lineWidth(1).strokeColor(COLORS.accent).stroke();
  }
  for (const p of ordered) doc.circle(xOf(p.day), yOf(p.value), 1.8).fill(isCofHigh(p.value, chart.threshold) ? COLORS.alert : COLORS.accent);
  doc.restore();
  // Dates under the axis: the first and the last reading.
  const labelY = plot.y + plot.height + 3;
  const firstDate = ordered[0]?.date ?? '';
  const lastDate = ordered[ordered.length - 1]?.date ?? '';
  report.text(firstDate, plot.x, labelY, { size: 6, color: COLORS.muted, width: plot.width / 2 });
  if (lastDate !== firstDate) report.text(lastDate, plot.x + plot.width / 2, labelY, { size: 6, color: COLORS.muted, width: plot.width / 2, align: 'right' });
}
