/**
 * What visitors and admins did that the outside world should hear about: a booking, a
 * status change, a deleted appointment, a contact message. Two ways to hear it, one per kind:
 * - What a visitor's request creates (a booking, also through Calendly, and a contact message) is
 *   planned: each planner (mail, calendar sync) returns the deliveries it wants as writes, and the
 *   service commits them in the same transaction as the row (the transactional outbox, decision 022),
 *   so a stored booking always has its confirmation, notification and calendar event queued, and
 *   none is queued for a booking that was refused.
 * - Every activity is then announced after the commit to the listeners, which wake the delivery
 *   runner and queue what an admin's change needs (a cancellation, a calendar update); a listener's
 *   failure is logged, never turned into the visitor's error.
 * A booking or message stored without its deliveries (by a version before the outbox, during a
 * rolling deploy) is planned again by api/activity-recovery.ts.
 */
import type { Tables } from '../db/client.ts';
import type { Write } from '../db/transactions.ts';

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
  /** Why the firm cancelled it (absent in payloads stored before it existed). */
  cancellationReason?: string | null;
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
    cancellationReason: row.cancellationReason,
  };
}

export type Activity =
  | { type: 'appointment-booked'; appointment: AppointmentRow }
  | {
      type: 'appointment-changed';
      appointment: AppointmentRow;
      previousStatus: string;
      /** Set when the appointment was moved: when it was before. */
      previousDate?: Date;
      /** 'visitor': the visitor did it through their booking's link (the firm is told); otherwise the firm. */
      by?: 'visitor';
    }
  | { type: 'appointment-deleted'; appointment: AppointmentRow }
  | { type: 'contact-received'; submission: ContactSubmissionRow };

/** The activities whose deliveries commit with their rows (the outbox). */
export type PlannedActivity = Extract<Activity, { type: 'appointment-booked' | 'contact-received' }>;

export type ActivityListener = (activity: Activity) => void | Promise<void>;
/** The deliveries an activity needs, as writes for its transaction: synchronous, and reading nothing first. */
export type ActivityPlanner = (activity: PlannedActivity) => readonly Write[];

export interface ActivityEvents {
  /** Every planner's writes for this activity, to commit with the row that makes it. */
  plan(activity: PlannedActivity): Write[];
  /** After the commit. Resolves once every listener has finished; never rejects. */
  emit(activity: Activity): Promise<void>;
  subscribe(listener: ActivityListener): () => void;
  planWith(planner: ActivityPlanner): () => void;
}

export function createActivityEvents(onListenerError: (err: unknown, activity: Activity) => void = () => {}): ActivityEvents {
  const listeners = new Set<ActivityListener>();
  const planners = new Set<ActivityPlanner>();
  return {
    plan(activity) {
      return [...planners].flatMap((planner) => planner(activity));
    },
    planWith(planner) {
      planners.add(planner);
      return () => planners.delete(planner);
    },
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
