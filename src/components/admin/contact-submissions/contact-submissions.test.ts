import { describe, expect, it } from 'vitest';
import {
  excerpt,
  filtersFromSearch,
  filtersToSearch,
  filterSubmissions,
  hasFilters,
  noFilters,
  practiceAreaFilters,
  type statusFilters,
  type ContactSubmission,
} from './contact-submissions.ts';

let seq = 0;
const row = (overrides: Partial<ContactSubmission> = {}): ContactSubmission => ({
  id: `id-${++seq}`,
  firstName: 'Maria',
  lastName: 'Lopez',
  email: 'maria@example.com',
  phone: null,
  practiceArea: 'estate-planning',
  message: 'I would like to set up a living trust.',
  isRead: false,
  isResolved: false,
  createdAt: '2026-05-01T16:00:00.000Z',
  ...overrides,
});

describe('filterSubmissions', () => {
  const unreadPending = row({ firstName: 'Ana', lastName: 'Diaz', email: 'ana@firm.test', practiceArea: 'family-law', message: 'Custody question' });
  const readPending = row({ isRead: true, firstName: 'Ben', lastName: 'Cole', message: 'Probate of my father’s estate' });
  const readResolved = row({ isRead: true, isResolved: true, firstName: 'Cara', lastName: 'Ng', email: 'cara@mail.test', practiceArea: 'other' });
  const rows = [unreadPending, readPending, readResolved];

  it('keeps everything without filters', () => {
    expect(filterSubmissions(rows, noFilters)).toEqual(rows);
  });

  it('filters by each side of each flag', () => {
    const by = (status: (typeof statusFilters)[number]['value']) => filterSubmissions(rows, { ...noFilters, status }).map((s) => s.firstName);
    expect(by('new')).toEqual(['Ana']);
    expect(by('read')).toEqual(['Ben', 'Cara']);
    expect(by('pending')).toEqual(['Ana', 'Ben']);
    expect(by('resolved')).toEqual(['Cara']);
  });

  it('filters by practice area', () => {
    expect(filterSubmissions(rows, { ...noFilters, practiceArea: 'family-law' })).toEqual([unreadPending]);
    expect(filterSubmissions(rows, { ...noFilters, practiceArea: 'trust-administration' })).toEqual([]);
  });

  it('searches the full name, the e-mail and the message, case-insensitively, every word', () => {
    const search = (text: string) => filterSubmissions(rows, { ...noFilters, search: text }).map((s) => s.firstName);
    expect(search('ana diaz')).toEqual(['Ana']);
    expect(search('CARA@MAIL')).toEqual(['Cara']);
    expect(search('probate')).toEqual(['Ben']);
    expect(search('  ben   estate ')).toEqual(['Ben']);
    expect(search('ben custody')).toEqual([]);
    expect(search('   ')).toEqual(['Ana', 'Ben', 'Cara']);
  });

  it('combines the filters', () => {
    expect(filterSubmissions(rows, { search: 'a', status: 'read', practiceArea: 'other' })).toEqual([readResolved]);
  });
});

describe('filters in the address bar', () => {
  it('round-trips and ignores unknown values', () => {
    const filters = { search: 'living trust', status: 'pending' as const, practiceArea: 'family-law' };
    expect(filtersFromSearch(filtersToSearch(filters))).toEqual(filters);
    expect(filtersToSearch(noFilters)).toBe('');
    expect(filtersFromSearch('?status=archived&area=tax&q=')).toEqual(noFilters);
    expect(hasFilters(noFilters)).toBe(false);
    expect(hasFilters({ ...noFilters, search: ' x ' })).toBe(true);
  });

  it('offers every contact practice area with its label', () => {
    expect(practiceAreaFilters.map((f) => f.label)).toEqual(['All practice areas', 'Family Law', 'Estate Planning', 'Trust Administration', 'Other']);
  });
});

describe('excerpt', () => {
  it('keeps a short message whole, on one line', () => {
    expect(excerpt('Hello\n\nthere')).toBe('Hello there');
  });
  it('cuts a long one at a word with an ellipsis', () => {
    const text = 'word '.repeat(100);
    const cut = excerpt(text, 42);
    expect(cut.endsWith('word…')).toBe(true);
    expect(cut.length).toBeLessThanOrEqual(43);
  });
});
