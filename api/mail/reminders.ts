/**
 * Consultation reminders queued as e-mails. Which appointments get one, and when, is the
 * appointments feature's rule (appointmentReminders in api/appointments/appointments.service.ts);
 * this queues them:
 * - The scan (every minute in the server, api/composition.ts) queues a reminder for each appointment
 *   the rules find due.
 * - Exactly once, however many servers scan: the delivery's dedupeKey `reminder:<appointmentId>` is
 *   unique in the database, so of two scans only one stores the reminder; reminderSent is set right
 *   after the enqueue, by both (the loser too, so the row stops being a candidate). Enqueue first,
 *   then the flag: a process that stops between the two leaves the flag false, and the next scan
 *   finds the key taken and sets it; the other order could lose the reminder.
 * - Whether to send is decided again at send time (mail.ts asks the rules again).
 */
import { appointmentReminders } from '../appointments/appointments.service.ts';
import type { Deps } from '../deps.ts';

export const reminderDedupeKey = (appointmentId: string) => `reminder:${appointmentId}`;

/** What a stored reminder carries: the appointment is re-read at send time. */
export interface ReminderPayload {
  appointmentId: string;
}

/** Queues the reminders that are due; resolves with how many this call queued. */
export async function scanReminders(deps: Pick<Deps, 'database' | 'clock' | 'deliveries'>): Promise<number> {
  const reminders = appointmentReminders(deps);
  let queued = 0;
  for (const appointment of await reminders.due()) {
    const payload: ReminderPayload = { appointmentId: appointment.id };
    const row = await deps.deliveries.enqueue({
      channel: 'email',
      purpose: 'reminder',
      payload,
      appointmentId: appointment.id,
      recipient: appointment.email,
      dedupeKey: reminderDedupeKey(appointment.id),
    });
    await reminders.markSent(appointment.id);
    if (row) queued++;
  }
  return queued;
}
