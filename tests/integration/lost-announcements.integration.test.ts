/**
 * Bookings and contact messages stored without their deliveries (api/activity-recovery.ts), as a
 * container of a version before the outbox (decision 022) left them when it stopped between its
 * commit and its announcement, on SQLite and PostgreSQL: the sweep plans and announces them again, so
 * the visitor still gets the confirmation and the firm its notifications; announced rows, rows that
 * may still be being announced and old rows are left alone; two sweeps at once queue each delivery once.
 */
import { eq, inArray } from 'drizzle-orm';
import { beforeEach, expect, it } from 'vitest';
import { GRACE_MS, recoverLostAnnouncements, WINDOW_MS } from '../../api/activity-recovery.ts';
import { appointmentsRepository, claimCells } from '../../api/appointments/appointments.repository.ts';
import { addDays, firmToday } from '../../src/shared/firm-time.ts';
import { book, freeSlots, visitorBooking } from '../support/appointment-requests.ts';
import { activeWebhook, clearActivity } from '../support/outbox.ts';
import { forEachDialect, type TestContext } from '../support/test-app.ts';

const webhookSecret = 'whsec-lost-announcements-2468';

/** Weekday 10:00 and 14:00 slots from a week ahead on, one per call (bookable whatever day the suite runs). */
const freeSlot = freeSlots(addDays(firmToday(new Date()), 7), ['10:00', '14:00']);
let lost = 0;

/** What POST /api/appointments stored before the outbox, without what followed the commit. */
async function bookingStoredButNotAnnounced(ctx: TestContext) {
  const scheduledDate = new Date(freeSlot());
  const row = await appointmentsRepository(ctx.database).createWithClaims(
    { ...visitorBooking, email: `lost-${++lost}@example.com`, scheduledDate, duration: 60, status: 'scheduled', reminderSent: false },
    claimCells(scheduledDate, 60),
  );
  return row!;
}

/** What POST /api/contact stored before the outbox, without what followed the commit. */
async function messageStoredButNotAnnounced(ctx: TestContext) {
  const { db, t } = ctx.database;
  const [row] = await db
    .insert(t.contactSubmissions)
    .values({
      firstName: 'Dana',
      lastName: 'Reyes',
      email: 'dana.reyes@example.com',
      phone: null,
      practiceArea: 'family-law',
      message: 'Please call me about custody.',
    })
    .returning();
  return row!;
}

async function deliveriesFor(ctx: TestContext, ids: string[]) {
  const { db, t } = ctx.database;
  const rows = await db
    .select()
    .from(t.deliveries)
    .where(
      inArray(
        t.deliveries.dedupeKey,
        ids.flatMap((id) => [`booking-confirmation:${id}`, `booking-notification:${id}`, `contact-notification:${id}`]),
      ),
    );
  return rows.map((r) => r.dedupeKey).sort();
}

const minutesFromNow = (minutes: number) => new Date(Date.now() + minutes * 60_000);

forEachDialect('lost announcements', (ctx) => {
  beforeEach(() => clearActivity(ctx()));

  it("announces a stored booking and message again: the visitor's confirmation, the firm's notifications and the calendar event are queued, then sent", async () => {
    await activeWebhook(ctx(), { webhookUrl: 'http://127.0.0.1:9/hook', apiKey: webhookSecret });
    const booking = await bookingStoredButNotAnnounced(ctx());
    const message = await messageStoredButNotAnnounced(ctx());

    ctx().clock.set(minutesFromNow(3));
    expect(await recoverLostAnnouncements(ctx().deps)).toBe(2);
    expect(await deliveriesFor(ctx(), [booking.id, message.id])).toEqual(
      [`booking-confirmation:${booking.id}`, `booking-notification:${booking.id}`, `contact-notification:${message.id}`].sort(),
    );
    const { db, t } = ctx().database;
    const calendar = await db.select().from(t.deliveries).where(eq(t.deliveries.appointmentId, booking.id));
    expect(calendar.filter((d) => d.channel === 'calendar').map((d) => d.purpose)).toEqual(['event-create']);

    // Announced now: the next sweep finds nothing, and the mail is handled (held in the development
    // outbox: no email setting here), each message once.
    expect(await recoverLostAnnouncements(ctx().deps)).toBe(0);
    await ctx().background.runDeliveries();
    const handled = await db.select().from(t.deliveries).where(eq(t.deliveries.channel, 'email'));
    expect(handled.map((d) => d.status)).toEqual(['held', 'held', 'held']);
  });

  it('leaves alone what was announced, what may still be being announced, and what is over a day old', async () => {
    const announced = await book(ctx(), { scheduledDate: freeSlot() });
    const written = await ctx().call('POST', '/api/contact', {
      body: {
        firstName: 'Ana',
        lastName: 'Ruiz',
        email: 'ana.ruiz@example.com',
        practiceArea: 'estate-planning',
        message: 'About my mother’s will.',
        consent: true,
      },
    });
    expect(written.status, JSON.stringify(written.body)).toBe(201);
    ctx().clock.set(minutesFromNow(3));
    expect(await recoverLostAnnouncements(ctx().deps)).toBe(0);

    await bookingStoredButNotAnnounced(ctx());
    await messageStoredButNotAnnounced(ctx());
    ctx().clock.set(new Date(Date.now() + GRACE_MS - 5_000));
    expect(await recoverLostAnnouncements(ctx().deps)).toBe(0);
    ctx().clock.set(new Date(Date.now() + WINDOW_MS + 60_000));
    expect(await recoverLostAnnouncements(ctx().deps)).toBe(0);
  });

  it('queues each delivery once when two servers sweep at the same moment', async () => {
    await activeWebhook(ctx(), { webhookUrl: 'http://127.0.0.1:9/hook', apiKey: webhookSecret });
    const bookings = [await bookingStoredButNotAnnounced(ctx()), await bookingStoredButNotAnnounced(ctx())];
    const message = await messageStoredButNotAnnounced(ctx());
    ctx().clock.set(minutesFromNow(3));
    const counts = await Promise.all([recoverLostAnnouncements(ctx().deps), recoverLostAnnouncements(ctx().deps)]);
    // Each sweep announces what it found unmarked: all three, or fewer if the other got there first.
    expect(counts.every((n) => n <= 3) && counts.some((n) => n === 3)).toBe(true);
    const ids = [...bookings.map((b) => b.id), message.id];
    const { db, t } = ctx().database;
    const stored = await db.select().from(t.deliveries);
    expect(await deliveriesFor(ctx(), ids)).toHaveLength(5);
    // One calendar event per booking, too.
    expect(
      stored
        .filter((d) => d.channel === 'calendar')
        .map((d) => d.appointmentId)
        .sort(),
    ).toEqual(bookings.map((b) => b.id).sort());
    expect(stored).toHaveLength(7);
  });
});
