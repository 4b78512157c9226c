import { describe, expect, it } from 'vitest';
import {
  filtersFromParams,
  inspectionsUrl,
  lastPageOf,
  NO_FILTERS,
  pageFromParams,
  pageRange,
  withFiltersAndPage,
} from './record-query.js';

const queryOf = (url: string) => Object.fromEntries(new URL(url, 'http://x').searchParams);

describe('the list request', () => {
  it('asks for one page of 50 and nothing else when no filter is set', () => {
    expect(inspectionsUrl(NO_FILTERS, 1)).toBe('/api/inspections?limit=50&offset=0');
  });

  it('sends only the filters that are set, trimmed, and the offset of the page', () => {
    const url = inspectionsUrl({ ...NO_FILTERS, q: '  7KQ2XM ', type: 'CoF', section: ' ', from: '2026-11-01', technicianId: 'TEC2002' }, 3);
    expect(queryOf(url)).toEqual({ limit: '50', offset: '100', q: '7KQ2XM', type: 'CoF', from: '2026-11-01', technicianId: 'TEC2002' });
  });
});

describe('the URL of the view', () => {
  it('keeps view, writes set filters and a page past 1, and drops the rest', () => {
    const before = new URLSearchParams('view=records-management&section=OLD&page=4');
    const next = withFiltersAndPage(before, { ...NO_FILTERS, division: 'RTM/WR', curveNumber: '12' }, 2);
    expect(Object.fromEntries(next)).toEqual({ view: 'records-management', division: 'RTM/WR', curveNumber: '12', page: '2' });
    expect(Object.fromEntries(withFiltersAndPage(next, NO_FILTERS, 1))).toEqual({ view: 'records-management' });
    // The params given are not changed.
    expect(before.get('section')).toBe('OLD');
  });

  it('reads filters back, dropping dates and types a hand-edited URL got wrong', () => {
    const params = new URLSearchParams('from=2026-11-01&to=yesterday&type=Repair&q=%20abc%20&technicianId=TEC2002');
    expect(filtersFromParams(params)).toEqual({ ...NO_FILTERS, from: '2026-11-01', q: 'abc', technicianId: 'TEC2002' });
    expect(filtersFromParams(new URLSearchParams('type=Service')).type).toBe('Service');
    // A date that is not in the calendar is the server's 400, so it is dropped too.
    expect(filtersFromParams(new URLSearchParams('from=2026-02-31&to=2026-03-01'))).toEqual({ ...NO_FILTERS, to: '2026-03-01' });
  });

  it.each([
    [null, 1],
    ['3', 3],
    ['0', 1],
    ['-2', 1],
    ['2.5', 1],
    ['abc', 1],
    ['99999999999', 1],
  ])('reads page %s as %i', (raw, page) => {
    const params = new URLSearchParams(raw === null ? '' : `page=${raw}`);
    expect(pageFromParams(params)).toBe(page);
  });
});

describe('page numbers', () => {
  it('counts the records shown and the last page', () => {
    expect(pageRange(1, 50)).toEqual({ first: 1, last: 50 });
    expect(pageRange(3, 20)).toEqual({ first: 101, last: 120 });
    expect(pageRange(1, 0)).toEqual({ first: 0, last: 0 });
    expect(lastPageOf(0)).toBe(1);
    expect(lastPageOf(50)).toBe(1);
    expect(lastPageOf(51)).toBe(2);
    expect(lastPageOf(100_000)).toBe(2000);
  });
});
