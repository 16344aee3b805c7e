/**
 * Bookings and messages stored without their deliveries (docs/decisions/010 and 022).
 *
 * Since decision 022 a booking and a contact message commit with their e-mails and calendar event
 * (the outbox), so this process never leaves one behind. A container of an older version, still
 * running during a rolling deploy, announced them after the commit instead, and one that stopped
 * between the two (killed, out of memory, a deploy without a drain) left the booking stored but
 * nobody told: no confirmation for the visitor, no notification for the firm. The firm's
 * notification delivery is the mark, with a known dedupeKey (`booking-notification:<id>`,
 * `contact-notification:<id>`), queued for every booking (also through Calendly) and every message.
 * This sweep finds the recent rows without their mark, commits their planned deliveries, and
 * announces them.
 *
 * Doing it twice is harmless: every planned delivery has a dedupeKey, so of two containers sweeping
 * at once, one stores each delivery. Rows younger than GRACE_MS are left to the announcement that may
 * still be running; rows older than WINDOW_MS are left alone (a confirmation days late would confuse
 * more than it helps, and a database that predates the outbox must not mail its history).
 *
 * Not recovered: status changes and deletions (a lost cancellation mail or calendar update); their
 * mark is not unique to one event, and they are admins' actions, seen by the admin who made them.
 */
import { and, eq, gt, lt, notExists, sql } from 'drizzle-orm';
import { inTransaction } from '../db/transactions.ts';
import type { PlannedActivity } from './activity.ts';
import type { Deps } from './deps.ts';

export const GRACE_MS = 2 * 60_000;
export const WINDOW_MS = 24 * 60 * 60_000;
const LIMIT = 200;

/** The dedupe key of the mark each announcement leaves (queued by api/mail/mail.ts). */
export const announcementMark = {
  booking: (appointmentId: string) => `booking-notification:${appointmentId}`,
  contact: (submissionId: string) => `contact-notification:${submissionId}`,
};

/** Announces again what was stored but never announced; resolves with how many it announced. */
export async function recoverLostAnnouncements({ database, clock, activity, log }: Pick<Deps, 'database' | 'clock' | 'activity' | 'log'>): Promise<number> {
  const { db, t } = database;
  const now = clock.now().getTime();
  const from = new Date(now - WINDOW_MS);
  const to = new Date(now - GRACE_MS);
  const marked = (key: ReturnType<typeof sql>) => db.select({ one: sql`1` }).from(t.deliveries).where(eq(t.deliveries.dedupeKey, key));

  const bookings = await db
    .select()
    .from(t.appointments)
    .where(
      and(
        gt(t.appointments.createdAt, from),
        lt(t.appointments.createdAt, to),
        notExists(marked(sql`${announcementMark.booking('')} || ${t.appointments.id}`)),
      ),
    )
    .orderBy(t.appointments.createdAt)
    .limit(LIMIT);
  const messages = await db
    .select()
    .from(t.contactSubmissions)
    .where(
      and(
        gt(t.contactSubmissions.createdAt, from),
        lt(t.contactSubmissions.createdAt, to),
        notExists(marked(sql`${announcementMark.contact('')} || ${t.contactSubmissions.id}`)),
      ),
    )
    .orderBy(t.contactSubmissions.createdAt)
    .limit(LIMIT);

  const again = async (planned: PlannedActivity) => {
    const writes = activity.plan(planned);
    if (writes.length) await inTransaction(database, (tx) => writes.map((write) => write(tx)));
    await activity.emit(planned);
  };
  // A warning: each one means a process stopped at the wrong moment.
  for (const appointment of bookings) {
    log.warn('announcing a booking again: its announcement was lost', { appointmentId: appointment.id });
    await again({ type: 'appointment-booked', appointment });
  }
  for (const submission of messages) {
    log.warn('announcing a contact message again: its announcement was lost', { submissionId: submission.id });
    await again({ type: 'contact-received', submission });
  }
  return bookings.length + messages.length;
}
