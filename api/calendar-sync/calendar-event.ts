/**
 * What a calendar delivery carries, and how an appointment reads as a calendar event.
 * Shared by the providers: the custom webhook posts the snapshot itself, Google and Outlook turn it
 * into their event resources. The payload is stored in the delivery row (no foreign key to the
 * appointment), so it holds everything a delete needs once the appointment row is gone.
 */
import { consultationTypeLabel, practiceAreaLabel } from '../../src/shared/constants.ts';
import { appointmentSnapshot, type AppointmentSnapshot } from '../activity.ts';
import { PermanentDeliveryError } from '../deliveries/deliveries.ts';

export type CalendarAction = 'create' | 'update' | 'cancel' | 'delete';
export const calendarActions: readonly CalendarAction[] = ['create', 'update', 'cancel', 'delete'];

/** The delivery's purpose in the log: 'event-create', 'event-update', 'event-cancel', 'event-delete'. */
export const purposeOf = (action: CalendarAction) => `event-${action}`;

/** The appointment as it was when the change happened (dates as ISO text: it is stored as JSON). */
export type { AppointmentSnapshot };

export interface CalendarPayload {
  action: CalendarAction;
  /** When the change was made (the firm's clock), not when it is delivered. */
  occurredAt: string;
  /** For a status change: the status before it. */
  previousStatus: string | null;
  appointment: AppointmentSnapshot;
}

export const snapshot = appointmentSnapshot;

/** The stored payload, checked: a row written by another version must fail loudly, not half-sync. */
export function readPayload(raw: unknown): CalendarPayload {
  const p = raw as Partial<CalendarPayload> | null;
  if (!p || typeof p !== 'object' || !calendarActions.includes(p.action as CalendarAction) || !p.appointment?.id || !p.appointment.scheduledDate) {
    throw new PermanentDeliveryError('The calendar delivery payload is not one this version understands.');
  }
  return p as CalendarPayload;
}

export const startOf = (a: AppointmentSnapshot) => new Date(a.scheduledDate);
export const endOf = (a: AppointmentSnapshot) => new Date(new Date(a.scheduledDate).getTime() + a.duration * 60_000);

/** 'Initial Consultation: Maria Lopez' */
export function eventTitle(a: AppointmentSnapshot): string {
  return `${consultationTypeLabel(a.consultationType)}: ${a.firstName} ${a.lastName}`.trim();
}

const statusLabels: Record<string, string> = { scheduled: 'Scheduled', confirmed: 'Confirmed', cancelled: 'Cancelled', completed: 'Completed' };

/** Plain text for the event's description: what the firm needs at a glance in its calendar. */
export function eventDescription(a: AppointmentSnapshot): string {
  return [
    `Status: ${statusLabels[a.status] ?? a.status}`,
    `Consultation: ${consultationTypeLabel(a.consultationType)} (${a.duration} minutes)`,
    `Practice area: ${practiceAreaLabel(a.practiceArea)}`,
    `Client: ${a.firstName} ${a.lastName}`.trim(),
    `Email: ${a.email}`,
    ...(a.phone ? [`Phone: ${a.phone}`] : []),
    ...(a.notes ? ['', 'Notes:', a.notes] : []),
    '',
    `Appointment ${a.id}`,
  ].join('\n');
}
