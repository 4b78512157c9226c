import { I18nProvider } from '@lingui/react';
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ScheduleSectionSummary } from '../../../../../common/schemas/schedule.js';
import { i18n } from '../../../lib/i18n.js';
import { ScheduleCountsTable, sumCounts } from './schedule-summary-table.js';

const counts = (never: number, noMachine: number): Pick<ScheduleSectionSummary, 'curves' | 'service' | 'cof'> => ({
  curves: 10 + noMachine,
  service: { overdue: 2, dueSoon: 1, never, inTime: 7 - never, notNeeded: 0, noMachine, attention: 3 + never },
  cof: { overdue: 1, dueSoon: 0, never, inTime: 9 - never, high: 1, noMachine, attention: 2 + never },
});

describe('the schedule counts table', () => {
  it('counts the curves without a machine in their own "No machine" column, never as "never"', () => {
    render(
      <I18nProvider i18n={i18n}>
        <ScheduleCountsTable
          caption="Maintenance schedule by division"
          rowHeader="division"
          rows={[
            { key: 'RTM/WR', label: 'RTM/WR', counts: counts(1, 40) },
            { key: 'FZR/NR', label: 'FZR/NR', counts: counts(0, 25) },
          ]}
        />
      </I18nProvider>,
    );
    const table = screen.getByRole('table', { name: 'Maintenance schedule by division' });
    const headers = within(table).getAllByRole('columnheader').map((h) => h.textContent);
    expect(headers).toContain('No machine');
    const cellOf = (row: string, column: string) => {
      const cells = within(within(table).getByRole('rowheader', { name: row }).closest('tr') as HTMLElement).getAllByRole('cell');
      return cells[headers.indexOf(column) - 1]?.textContent;
    };
    expect(cellOf('RTM/WR', 'No machine')).toBe('40');
    expect(cellOf('RTM/WR', 'Service never')).toBe('1');
    expect(cellOf('Total', 'No machine')).toBe('65');
    expect(cellOf('Total', 'Curves')).toBe('85');
  });

  it('adds every count, the curves without a machine included', () => {
    const total = sumCounts([counts(1, 40), counts(0, 25)]);
    expect(total.service).toMatchObject({ never: 1, noMachine: 65 });
    expect(total.cof).toMatchObject({ never: 1, noMachine: 65, high: 2 });
  });
});
