/**
 * The appointments screen's rules, apart from the React code so they are unit tested: the row type of
 * GET /api/admin/appointments, SPEC §4 Appointment status (which actions a status allows), the count
 * cards and the order of the list (upcoming first).
 */
import { appointmentStatuses, type AppointmentStatus } from '../../../shared/constants.ts';
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
 * nothing once it has started, or when it was cancelled or completed already.
 */
export function clientNotice(
  action: 'cancel' | 'delete',
  a: Pick<Appointment, 'status' | 'scheduledDate'>,
  { now, emailConfigured }: { now: Date; emailConfigured: boolean | undefined },
): string {
  if (isTerminal(a.status) || new Date(a.scheduledDate) <= now) return 'The client is not e-mailed: it has already started or ended.';
  if (emailConfigured === false) return 'E-mail is not configured: the client’s e-mail that it is cancelled is held, not sent.';
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
