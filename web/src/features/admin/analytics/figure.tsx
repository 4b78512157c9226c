import { type ReactNode, useId, useState } from 'react';
import { Link } from 'react-router';
import { buttonClasses } from '../../../components/ui/button.js';
import { Card, CardDescription, CardTitle } from '../../../components/ui/card.js';
import { useAnalyticsTexts } from './analytics-texts.js';

/** One of the dashboard's sections: a card with its heading. */
export function AnalyticsSection({ title, caption, children }: { title: string; caption?: string; children: ReactNode }) {
  const id = useId();
  return (
    <Card aria-labelledby={id} className="flex min-w-0 flex-col gap-4">
      <div>
        <CardTitle id={id}>{title}</CardTitle>
        {caption ? <CardDescription className="mt-1">{caption}</CardDescription> : null}
      </div>
      {children}
    </Card>
  );
}

/**
 * A chart with what it says in words (read by a screen reader, and by anyone glancing), its
 * table in its place on request, and its data as Excel.
 */
export function Figure({ title, summary, chart, table, excelUrl }: { title: string; summary: string; chart: ReactNode; table: ReactNode; excelUrl?: string }) {
  const T = useAnalyticsTexts();
  const id = useId();
  const [asTable, setAsTable] = useState(false);
  return (
    <section aria-labelledby={id} className="flex min-w-0 flex-col gap-2">
      <h3 id={id} className="text-base font-bold text-slate-900">
        {title}
      </h3>
      <p className="text-base text-slate-800">{summary}</p>
      {asTable ? table : chart}
      <div className="flex flex-wrap gap-2">
        <button type="button" aria-pressed={asTable} className={buttonClasses('outline', 'sm')} onClick={() => setAsTable((shown) => !shown)}>
          {asTable ? T.showChart : T.showTable}
        </button>
        {excelUrl ? (
          <a href={excelUrl} download rel="noopener" aria-label={T.downloadExcelOf(title)} className={buttonClasses('outline', 'sm')}>
            {T.downloadExcel}
          </a>
        ) : null}
      </div>
    </section>
  );
}

export interface Column {
  header: string;
  /** Figures line up on the right. */
  numeric?: boolean;
}

export interface TableRow {
  key: string;
  /** The first is the row's name. */
  cells: ReactNode[];
}

/** Rows a table shows before Show all: a ranking's head reads at a glance. */
const FIRST_ROWS = 10;

/** A table a phone scrolls inside its own box (reached by the keyboard too), never the page sideways. */
export function FigureTable({ caption, columns, rows }: { caption: string; columns: readonly Column[]; rows: readonly TableRow[] }) {
  const T = useAnalyticsTexts();
  const [all, setAll] = useState(false);
  const shown = all ? rows : rows.slice(0, FIRST_ROWS);
  return (
    <div className="flex flex-col items-start gap-1">
      {/* A box that scrolls must be reachable to be scrolled by keys (axe: scrollable-region-focusable). */}
      <div role="group" aria-label={caption} tabIndex={0} className="w-full max-w-full overflow-x-auto rounded focus-visible:outline-2 focus-visible:outline-brand-700">
        <table className="w-full border-collapse text-left text-sm text-slate-900">
          <caption className="mb-1 text-left text-sm font-semibold text-slate-800">{caption}</caption>
          <thead>
            <tr className="border-b-2 border-slate-300">
              {columns.map((column) => (
                <th key={column.header} scope="col" className={`px-2 py-2 font-semibold ${column.numeric ? 'text-right' : ''}`}>
                  {column.header}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {shown.map((row) => (
              <tr key={row.key} className="border-b border-slate-200">
                {row.cells.map((cell, i) =>
                  i === 0 ? (
                    <th key={i} scope="row" className="px-2 py-1 font-medium">
                      {cell}
                    </th>
                  ) : (
                    <td key={i} className={`px-2 py-1 tabular-nums ${columns[i]?.numeric ? 'text-right' : ''}`}>
                      {cell}
                    </td>
                  ),
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {rows.length > FIRST_ROWS ? (
        <button type="button" className={buttonClasses('ghost', 'sm', 'underline')} aria-expanded={all} onClick={() => setAll((shownAll) => !shownAll)}>
          {all ? T.showFirst(FIRST_ROWS) : T.showAll(rows.length)}
        </button>
      ) : null}
    </div>
  );
}

/**
 * A figure that opens the records behind it (Admins); the bare figure where there is nowhere to
 * go. The link's name begins with the figure as shown, unless it ends with it already, so a user of
 * voice control can say what they see (WCAG 2.5.3, axe label-content-name-mismatch).
 */
export function RecordsLink({ href, label, children }: { href: string | null; label: string; children: ReactNode }) {
  if (href === null) return <>{children}</>;
  const shown = typeof children === 'string' || typeof children === 'number' ? String(children) : '';
  return (
    <Link
      to={href}
      // A count of 2 is not named by "Open the CoF records of Nov 2025": only a label ending in the word itself names it.
      aria-label={shown === '' || label.endsWith(` ${shown}`) ? label : `${shown}: ${label}`}
      className="inline-flex min-h-11 min-w-11 items-center justify-end rounded-lg px-1 font-semibold text-brand-800 underline hover:bg-slate-100"
    >
      {children}
    </Link>
  );
}
