/**
 * What visitors and admins did that the outside world should hear about: a booking, a
 * status change, a deleted appointment, a contact message. Services announce it after the write has
 * committed and wait for the listeners (mail, calendar sync), which only enqueue deliveries
 * (api/deliveries): quick, and a listener's failure is logged, never turned into the visitor's error.
 * A booking or message whose announcement was lost (the process stopped, a listener failed) is
 * announced again by api/activity-recovery.ts.
 */
import type { Tables } from '../db/client.ts';

export type AppointmentRow = Tables['appointments']['$inferSelect'];
export type ContactSubmissionRow = Tables['contactSubmissions']['$inferSelect'];

/** An appointment as a delivery's payload stores it (JSON: the date as ISO text, UTC). */
export interface AppointmentSnapshot {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  phone: string | null;
  consultationType: string;
  practiceArea: string;
  notes: string | null;
  scheduledDate: string;
  duration: number;
  status: string;
  externalEventId: string | null;
}

export function appointmentSnapshot(row: AppointmentRow): AppointmentSnapshot {
  return {
    id: row.id,
    firstName: row.firstName,
    lastName: row.lastName,
    email: row.email,
    phone: row.phone,
    consultationType: row.consultationType,
    practiceArea: row.practiceArea,
    notes: row.notes,
    scheduledDate: row.scheduledDate.toISOString(),
    duration: row.duration,
    status: row.status,
    externalEventId: row.externalEventId,
  };
}

export type Activity =
  | { type: 'appointment-booked'; appointment: AppointmentRow }
  | { type: 'appointment-changed'; appointment: AppointmentRow; previousStatus: string }
  | { type: 'appointment-deleted'; appointment: AppointmentRow }
  | { type: 'contact-received'; submission: ContactSubmissionRow };

export type ActivityListener = (activity: Activity) => void | Promise<void>;

export interface ActivityEvents {
  /** Resolves once every listener has finished; never rejects. */
  emit(activity: Activity): Promise<void>;
  subscribe(listener: ActivityListener): () => void;
}

export function createActivityEvents(onListenerError: (err: unknown, activity: Activity) => void = () => {}): ActivityEvents {
  const listeners = new Set<ActivityListener>();
  return {
    async emit(activity) {
      const outcomes = await Promise.allSettled([...listeners].map(async (listener) => listener(activity)));
      for (const outcome of outcomes) if (outcome.status === 'rejected') onListenerError(outcome.reason, activity);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
