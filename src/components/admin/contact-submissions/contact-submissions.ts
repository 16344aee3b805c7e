/**
 * The contact submissions screen's rules, kept apart from the React code so they are unit tested:
 * what a row from GET /api/admin/contact-submissions looks like, the filters (SPEC §2: search, status,
 * practice area) and how they live in the address bar.
 */
import { contactPracticeAreas, practiceAreaLabels } from '../../../shared/constants.ts';
import type { adminQueries, Row } from '../admin-api.ts';

/** A row of GET /api/admin/contact-submissions (SPEC §3 contact_submissions), newest first, as the route answers it. */
export type ContactSubmission = Row<typeof adminQueries.contactSubmissions>;

/**
 * SPEC §4 Contact submission has two flags, read (New/Read) and resolved (Pending/Resolved); the
 * status filter offers each side of each flag, which is what the office asks: what is new, what is
 * still waiting for an answer.
 */
export const statusFilters = [
  { value: 'all', label: 'All statuses' },
  { value: 'new', label: 'New (unread)' },
  { value: 'read', label: 'Read' },
  { value: 'pending', label: 'Pending' },
  { value: 'resolved', label: 'Resolved' },
] as const;
export type StatusFilter = (typeof statusFilters)[number]['value'];

export const practiceAreaFilters = [
  { value: 'all', label: 'All practice areas' },
  ...contactPracticeAreas.map((value) => ({ value, label: practiceAreaLabels[value] ?? value })),
] as const;

export interface SubmissionFilters {
  search: string;
  status: StatusFilter;
  practiceArea: string;
}

export const noFilters: SubmissionFilters = { search: '', status: 'all', practiceArea: 'all' };

export function hasFilters(filters: SubmissionFilters): boolean {
  return filters.search.trim() !== '' || filters.status !== 'all' || filters.practiceArea !== 'all';
}

const statusTest: Record<StatusFilter, (s: ContactSubmission) => boolean> = {
  all: () => true,
  new: (s) => !s.isRead,
  read: (s) => s.isRead,
  pending: (s) => !s.isResolved,
  resolved: (s) => s.isResolved,
};

/**
 * The rows that match every filter. The search looks in the full name, the e-mail address and the
 * message, case-insensitively; each word of the search must appear somewhere ('maria trust' finds
 * Maria's message about a trust).
 */
export function filterSubmissions(rows: readonly ContactSubmission[], filters: SubmissionFilters): ContactSubmission[] {
  const words = filters.search.toLocaleLowerCase().split(/\s+/).filter(Boolean);
  return rows.filter((s) => {
    if (!statusTest[filters.status](s)) return false;
    if (filters.practiceArea !== 'all' && s.practiceArea !== filters.practiceArea) return false;
    if (words.length === 0) return true;
    const haystack = `${s.firstName} ${s.lastName}\n${s.email}\n${s.message}`.toLocaleLowerCase();
    return words.every((w) => haystack.includes(w));
  });
}

export { practiceAreaLabel } from '../../../shared/constants.ts';

export function fullName(s: { firstName: string; lastName: string }): string {
  return `${s.firstName} ${s.lastName}`;
}

/** The first `max` characters of a message on one line, cut at a word where possible. */
export function excerpt(message: string, max = 160): string {
  const flat = message.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/**
 * Filters in the address bar (?q=…&status=new&area=family-law), so a filtered view can be reloaded,
 * bookmarked or linked (the dashboard's "new submissions"). Unknown values fall back to "all".
 */
export function filtersFromSearch(search: string): SubmissionFilters {
  const params = new URLSearchParams(search);
  const status = params.get('status');
  const area = params.get('area');
  return {
    search: params.get('q') ?? '',
    status: statusFilters.some((f) => f.value === status) ? (status as StatusFilter) : 'all',
    practiceArea: area && (contactPracticeAreas as readonly string[]).includes(area) ? area : 'all',
  };
}

export function filtersToSearch(filters: SubmissionFilters): string {
  const params = new URLSearchParams();
  if (filters.search.trim()) params.set('q', filters.search);
  if (filters.status !== 'all') params.set('status', filters.status);
  if (filters.practiceArea !== 'all') params.set('area', filters.practiceArea);
  const text = params.toString();
  return text ? `?${text}` : '';
}
