/**
 * The appointments screen's rules, apart from the React code so they are unit tested: the row type of
 * GET /api/admin/appointments, SPEC §4 Appointment status (which actions a status allows), the count
 * cards, the filters (status, search, dates) and the order of the list (upcoming first).
 */
import { bookingReference, isInboundRef } from '../../../shared/booking/self-service.ts';
import { appointmentStatuses, type AppointmentStatus } from '../../../shared/constants.ts';
import { addDays, firmDateOf, type FirmDate } from '../../../shared/firm-time.ts';
import type { adminQueries, Row } from '../admin-api.ts';

/** A row of GET /api/admin/appointments (SPEC §3 appointments), as the route answers it: dates are ISO strings. */
export type Appointment = Row<typeof adminQueries.appointments>;

/** Display order: the life of an appointment, then the way it can end early. */
export const statusOrder: readonly AppointmentStatus[] = ['scheduled', 'confirmed', 'completed', 'cancelled'];

export const statusLabels: Record<AppointmentStatus, string> = {
  scheduled: 'Scheduled',
  confirmed: 'Confirmed',
  completed: 'Completed',
  cancelled: 'Cancelled',
};

/** What each count card tells the office (the four statuses; their sum is the list's total). */
export const statusMeaning: Record<AppointmentStatus, string> = {
  scheduled: 'Waiting for the firm to confirm',
  confirmed: 'On the calendar',
  completed: 'Consultations held',
  cancelled: 'Called off',
};

export function statusLabel(status: string): string {
  return statusLabels[status as AppointmentStatus] ?? status;
}

export function isAppointmentStatus(value: string): value is AppointmentStatus {
  return (appointmentStatuses as readonly string[]).includes(value);
}

/** SPEC §4: a Confirm button only for scheduled appointments. */
export const canConfirm = (a: Pick<Appointment, 'status'>) => a.status === 'scheduled';

/** SPEC §4: completed and cancelled are terminal in the UI, so the status dropdown is not offered. */
export const isTerminal = (status: string) => status === 'completed' || status === 'cancelled';

/** Completed is a fact about the past: offered once the consultation has started (the server refuses it before). */
export const canComplete = (a: Pick<Appointment, 'scheduledDate'>, now: Date) => new Date(a.scheduledDate) <= now;

/**
 * What the client hears of a cancellation or a deletion, as the server does it (api/mail/mail.ts): an
 * e-mail while the consultation is still to come (held, and said so, while e-mail is not configured);
 * nothing once it has started, or when it was cancelled or completed already. A booking made through
 * Calendly stays booked there: a cancellation is e-mailed without a calendar file, a deletion not at
 * all, and either way the admin is told to cancel it in Calendly too.
 */
export function clientNotice(
  action: 'cancel' | 'delete',
  a: Pick<Appointment, 'status' | 'scheduledDate' | 'externalEventId'>,
  { now, emailConfigured }: { now: Date; emailConfigured: boolean | undefined },
): string {
  if (isTerminal(a.status) || new Date(a.scheduledDate) <= now) return 'The client is not e-mailed: it has already started or ended.';
  const inbound = isInboundRef(a.externalEventId);
  const calendly = inbound ? ' It was booked through Calendly: cancel it there too.' : '';
  if (inbound && action === 'delete') return `The client is not e-mailed.${calendly}`;
  if (emailConfigured === false) return `E-mail is not configured: the client’s e-mail that it is cancelled is held, not sent.${calendly}`;
  if (inbound) return `The client is e-mailed that it is cancelled.${calendly}`;
  return 'The client is e-mailed that it is cancelled, with a calendar file that removes it.';
}
export const canChangeStatus = (a: Pick<Appointment, 'status'>) => !isTerminal(a.status);

export { consultationTypeLabel, practiceAreaLabel } from '../../../shared/constants.ts';

export function fullName(a: { firstName: string; lastName: string }): string {
  return `${a.firstName} ${a.lastName}`;
}

export function countByStatus(rows: readonly Pick<Appointment, 'status'>[]): Record<AppointmentStatus, number> {
  const counts: Record<AppointmentStatus, number> = { scheduled: 0, confirmed: 0, completed: 0, cancelled: 0 };
  for (const row of rows) if (isAppointmentStatus(row.status)) counts[row.status] += 1;
  return counts;
}

export type StatusFilter = 'all' | AppointmentStatus;

export function filterByStatus<T extends Pick<Appointment, 'status'>>(rows: readonly T[], filter: StatusFilter): T[] {
  return filter === 'all' ? [...rows] : rows.filter((r) => r.status === filter);
}

/** The list's filters (issue 19, as Cal.com's bookings list has them), kept in the address bar. */
export interface AppointmentFilters {
  status: StatusFilter;
  /** Name, e-mail, phone or booking reference. */
  search: string;
  /** Firm dates (YYYY-MM-DD), both ends included; '' for open. */
  from: string;
  to: string;
}

export const noAppointmentFilters: AppointmentFilters = { status: 'all', search: '', from: '', to: '' };
const firmDay = /^\d{4}-\d{2}-\d{2}$/;

export function appointmentFiltersFromSearch(search: string): AppointmentFilters {
  const params = new URLSearchParams(search);
  const status = params.get('status') ?? '';
  const day = (key: string) => (firmDay.test(params.get(key) ?? '') ? params.get(key)! : '');
  return { status: isAppointmentStatus(status) ? status : 'all', search: params.get('q') ?? '', from: day('from'), to: day('to') };
}

export function appointmentFiltersToSearch(filters: AppointmentFilters): string {
  const params = new URLSearchParams();
  if (filters.status !== 'all') params.set('status', filters.status);
  if (filters.search.trim()) params.set('q', filters.search.trim());
  if (filters.from) params.set('from', filters.from);
  if (filters.to) params.set('to', filters.to);
  const text = params.toString();
  return text ? `?${text}` : '';
}

export const hasAppointmentFilters = (f: AppointmentFilters) => f.status !== 'all' || f.search.trim() !== '' || f.from !== '' || f.to !== '';

const digits = (text: string) => text.replace(/\D/g, '');

export function filterAppointments<T extends Pick<Appointment, 'id' | 'status' | 'scheduledDate' | 'firstName' | 'lastName' | 'email' | 'phone'>>(
  rows: readonly T[],
  filters: AppointmentFilters,
): T[] {
  const words = filters.search.trim().toLowerCase().split(/\s+/).filter(Boolean);
  return filterByStatus(rows, filters.status).filter((a) => {
    const day = firmDateOf(new Date(a.scheduledDate));
    if ((filters.from && day < filters.from) || (filters.to && day > filters.to)) return false;
    if (!words.length) return true;
    const haystack = `${fullName(a)} ${a.email} ${bookingReference(a.id)}`.toLowerCase();
    const phone = digits(a.phone ?? '');
    // Every word somewhere; a number also matches the phone whatever its punctuation.
    return words.every((w) => haystack.includes(w) || (digits(w).length >= 3 && phone.includes(digits(w))));
  });
}

const startOf = (a: Pick<Appointment, 'scheduledDate'>) => new Date(a.scheduledDate).getTime();

/**
 * "Upcoming first": appointments not yet over (one in progress still counts, until its end), soonest
 * first; then past ones, most recent first, since the office looks back at the last few days.
 */
export function splitUpcoming<T extends Pick<Appointment, 'scheduledDate' | 'duration'>>(rows: readonly T[], now: Date): { upcoming: T[]; past: T[] } {
  const upcoming: T[] = [];
  const past: T[] = [];
  for (const row of rows) (startOf(row) + row.duration * 60_000 > now.getTime() ? upcoming : past).push(row);
  upcoming.sort((a, b) => startOf(a) - startOf(b));
  past.sort((a, b) => startOf(b) - startOf(a));
  return { upcoming, past };
}

/** The seven firm days, Monday first, of the week that holds `day` (the week view, issue 19). */
export function weekOf(day: FirmDate): FirmDate[] {
  const weekday = new Date(`${day}T00:00:00Z`).getUTCDay(); // 0 Sunday … 6 Saturday: a calendar fact, no zone
  const monday = addDays(day, -((weekday + 6) % 7));
  return Array.from({ length: 7 }, (_, i) => addDays(monday, i));
}

/** Each day's appointments, in time order. */
export function byFirmDay<T extends Pick<Appointment, 'scheduledDate'>>(rows: readonly T[], days: readonly FirmDate[]): Map<FirmDate, T[]> {
  const map = new Map<FirmDate, T[]>(days.map((d) => [d, []]));
  for (const row of rows) map.get(firmDateOf(new Date(row.scheduledDate)))?.push(row);
  for (const list of map.values()) list.sort((a, b) => startOf(a) - startOf(b));
  return map;
}
