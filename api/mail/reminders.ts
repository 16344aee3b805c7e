/**
 * Consultation reminders (issue 7): about 24 hours before each scheduled or confirmed appointment,
 * once, never after a cancellation (DOMAIN "Scheduling": reminders sent after a cancellation are a
 * top complaint about schedulers).
 *
 * The rules:
 * - The scan (every minute in the server) queues a reminder for each appointment that is scheduled or
 *   confirmed, has reminderSent false, and starts within the next 24 hours but has not started yet.
 *   A server that was down catches up: an appointment 3 hours away still gets its reminder.
 * - Exactly once, however many servers scan: the delivery's dedupeKey `reminder:<appointmentId>` is
 *   unique in the database, so of two scans only one stores the reminder; reminderSent is set right
 *   after the enqueue, by both (the loser too, so the row stops being a candidate). Enqueue first,
 *   then the flag: a process that stops between the two leaves the flag false, and the next scan
 *   finds the key taken and sets it; the other order could lose the reminder.
 * - No reminder for an appointment booked less than 26 hours before it starts: its confirmation has
 *   just gone out with the same details, and a reminder would follow within two hours of it. The
 *   booking sets reminderSent at once for those (decided at booking, on the injected clock).
 * - No reminder either for a booking made through an external scheduler (Calendly, recognised by its
 *   inbound event reference): the scheduler mails its invitee itself, and our reminder's calendar
 *   file would add a second event to the visitor's calendar. Also settled at booking.
 * - Whether to send is decided again at send time (mail.ts): the reminder re-reads the appointment
 *   and is skipped if it was cancelled, completed or deleted meanwhile.
 */
import { and, asc, eq, gt, inArray, lte } from 'drizzle-orm';
import type { Deps } from '../deps.ts';
import type { AppointmentRow } from '../activity.ts';
import { isInboundRef } from '../calendar-sync/calendar-event.ts';

export const REMINDER_LEAD_MS = 24 * 60 * 60_000;
/** A reminder must come at least this long after the confirmation to be worth sending. */
export const REMINDER_MIN_GAP_AFTER_BOOKING_MS = 2 * 60 * 60_000;

/** Statuses that still get a reminder; cancelled and completed never do. */
export const REMINDABLE_STATUSES = ['scheduled', 'confirmed'] as const;

export const reminderDedupeKey = (appointmentId: string) => `reminder:${appointmentId}`;

/** What a stored reminder carries: the appointment is re-read at send time. */
export interface ReminderPayload {
  appointmentId: string;
}

/** Booked through an external scheduler (a Calendly invitee), which mails the visitor itself. */
export const bookedExternally = (appointment: Pick<AppointmentRow, 'externalEventId'>) => isInboundRef(appointment.externalEventId);

/**
 * At booking: a consultation that starts within 26 hours (the confirmation is its reminder), or one
 * booked through an external scheduler, will get no reminder from us; the flag is set so the scan
 * never picks it up. Conditional, so it never undoes anything.
 */
export async function settleReminderAtBooking({ database: { db, t }, clock }: Pick<Deps, 'database' | 'clock'>, appointment: AppointmentRow): Promise<boolean> {
  const lead = appointment.scheduledDate.getTime() - clock.now().getTime();
  const wanted = !bookedExternally(appointment) && lead >= REMINDER_LEAD_MS + REMINDER_MIN_GAP_AFTER_BOOKING_MS;
  if (appointment.reminderSent || wanted) return false;
  await db
    .update(t.appointments)
    .set({ reminderSent: true })
    .where(and(eq(t.appointments.id, appointment.id), eq(t.appointments.reminderSent, false)));
  return true;
}

/** Queues the reminders that are due; resolves with how many this call queued. */
export async function scanReminders({ database: { db, t }, clock, deliveries }: Pick<Deps, 'database' | 'clock' | 'deliveries'>): Promise<number> {
  const now = clock.now();
  const table = t.appointments;
  const due = await db
    .select({ id: table.id, email: table.email })
    .from(table)
    .where(
      and(
        eq(table.reminderSent, false),
        inArray(table.status, [...REMINDABLE_STATUSES]),
        gt(table.scheduledDate, now),
        lte(table.scheduledDate, new Date(now.getTime() + REMINDER_LEAD_MS)),
      ),
    )
    .orderBy(asc(table.scheduledDate))
    .limit(500);
  let queued = 0;
  for (const appointment of due) {
    const payload: ReminderPayload = { appointmentId: appointment.id };
    const row = await deliveries.enqueue({
      channel: 'email',
      purpose: 'reminder',
      payload,
      appointmentId: appointment.id,
      recipient: appointment.email,
      dedupeKey: reminderDedupeKey(appointment.id),
    });
    await db
      .update(table)
      .set({ reminderSent: true })
      .where(and(eq(table.id, appointment.id), eq(table.reminderSent, false)));
    if (row) queued++;
  }
  return queued;
}
