/** The firm's availability (decision 032): the one row of booking rules, the weekday hours and the closures. */
import { asc, eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { inTransaction } from '../../db/transactions.ts';
import { type BookingRulesSettings, weekdays } from '../../src/shared/schemas/booking-rules.ts';

const RULES_ID = 'firm';

export function bookingRulesRepository(database: Database) {
  const { db, t } = database;
  return {
    /** The stored settings, with when they last changed; null when the rules row is missing (a database edited by hand). */
    async read(): Promise<(BookingRulesSettings & { updatedAt: Date }) | null> {
      const [[rules], hours, closures] = await Promise.all([
        db.select().from(t.bookingRules).where(eq(t.bookingRules.id, RULES_ID)),
        db.select().from(t.bookingHours).orderBy(asc(t.bookingHours.weekday), asc(t.bookingHours.startTime)),
        db.select().from(t.bookingClosures).orderBy(asc(t.bookingClosures.firstDay), asc(t.bookingClosures.lastDay), asc(t.bookingClosures.createdAt)),
      ]);
      if (!rules) return null;
      return {
        hours: Object.fromEntries(
          weekdays.map((d) => [d.key, hours.filter((h) => h.weekday === d.day).map((h) => ({ start: h.startTime, end: h.endTime }))]),
        ) as BookingRulesSettings['hours'],
        observeHolidays: rules.observeHolidays,
        minimumNoticeHours: rules.minimumNoticeHours,
        bookingHorizonDays: rules.bookingHorizonDays,
        closures: closures.map((c) => ({ from: c.firstDay, to: c.lastDay, reason: c.reason })),
        updatedAt: rules.updatedAt,
      };
    },

    /** Replaces everything in one transaction: the admin's form is the whole of the availability. */
    async replace(settings: BookingRulesSettings): Promise<void> {
      const now = new Date();
      const hours = weekdays.flatMap((d) => settings.hours[d.key].map((h) => ({ weekday: d.day, startTime: h.start, endTime: h.end })));
      // Kept in the admin's order when two start on the same day.
      const closures = settings.closures.map((c, i) => ({ firstDay: c.from, lastDay: c.to, reason: c.reason, createdAt: new Date(now.getTime() + i) }));
      const rules = {
        observeHolidays: settings.observeHolidays,
        minimumNoticeHours: settings.minimumNoticeHours,
        bookingHorizonDays: settings.bookingHorizonDays,
        updatedAt: now,
      };
      await inTransaction(database, (tx) => [
        tx
          .insert(t.bookingRules)
          .values({ id: RULES_ID, ...rules })
          .onConflictDoUpdate({ target: t.bookingRules.id, set: rules })
          .returning({ id: t.bookingRules.id }),
        tx.delete(t.bookingHours).returning({ id: t.bookingHours.id }),
        ...(hours.length ? [tx.insert(t.bookingHours).values(hours).returning({ id: t.bookingHours.id })] : []),
        tx.delete(t.bookingClosures).returning({ id: t.bookingClosures.id }),
        ...(closures.length ? [tx.insert(t.bookingClosures).values(closures).returning({ id: t.bookingClosures.id })] : []),
      ]);
    },
  };
}
