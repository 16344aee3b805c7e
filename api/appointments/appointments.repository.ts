import { and, asc, desc, eq, gt, gte, inArray, lt, lte, ne, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/driver-errors.ts';
import { atomically, inTransaction, type Write } from '../../db/transactions.ts';

export type AppointmentValues = {
  firstName: string;
  lastName: string;
  email: string;
  phone: string | null;
  consultationType: string;
  practiceArea: string;
  notes: string | null;
  scheduledDate: Date;
  duration: number;
  status: string;
  reminderSent: boolean;
};

/** Slot claims are 30-minute cells (docs/decisions/008); every slot of SPEC §9 starts on one. */
export const CLAIM_MINUTES = 30;
const CLAIM_MS = CLAIM_MINUTES * 60_000;

/**
 * The cells [start, start + minutes) touches: ceil(minutes / 30) of them for a slot, which always
 * starts on a cell. (The migration's backfill applies the same rule to older, unaligned rows.)
 */
export function claimCells(start: Date, minutes: number): Date[] {
  const end = start.getTime() + minutes * 60_000;
  const cells: Date[] = [];
  for (let cell = Math.floor(start.getTime() / CLAIM_MS) * CLAIM_MS; cell < end; cell += CLAIM_MS) cells.push(new Date(cell));
  return cells;
}

/**
 * A claim already held: the database refused a second hold on a cell. Only the claims' primary key
 * counts; any other constraint failure is a real error.
 */
const isClaimTaken = (err: unknown) => isUniqueViolation(err, { pg: 'appointment_slot_claims_pkey', sqlite: 'appointment_slot_claims.starts_at' });

/** The unique index on externalEventId refused a second appointment for one external event. */
const isExternalEventIdTaken = (err: unknown) =>
  isUniqueViolation(err, { pg: 'appointments_external_event_id_unique', sqlite: 'appointments.external_event_id' });

export function appointmentsRepository(database: Database) {
  const { db, t } = database;
  const table = t.appointments;
  const claims = t.appointmentSlotClaims;
  return {
    listAll: () => db.select().from(table).orderBy(desc(table.scheduledDate)),
    async findById(id: string) {
      const [row] = await db.select().from(table).where(eq(table.id, id));
      return row ?? null;
    },
    /**
     * Stores the appointment and its claims on `cells` together. null when a cell is already claimed
     * (another booking got there first, in this process or any other): nothing is stored then.
     * `before`: statements that commit with them, ahead of them (the request's idempotency key), so a
     * duplicate request fails on its key before it waits for a slot's claim; `after`: statements that
     * commit with them once the slot is theirs (the booking's deliveries, decision 022).
     */
    async createWithClaims(
      values: AppointmentValues & { id?: string },
      cells: readonly Date[],
      { before = [], after = [] }: { before?: readonly Write[]; after?: readonly Write[] } = {},
    ) {
      const id = values.id ?? crypto.randomUUID();
      const sorted = [...cells].sort((a, b) => a.getTime() - b.getTime()); // one lock order: no deadlocks between bookings
      try {
        const results = await atomically(database, (tx) => [
          ...before.map((write) => write(tx)),
          tx
            .insert(table)
            .values({ ...values, id })
            .returning(),
          tx
            .insert(claims)
            .values(sorted.map((startsAt) => ({ startsAt, appointmentId: id })))
            .returning({ startsAt: claims.startsAt }),
          ...after.map((write) => write(tx)),
        ]);
        return (results[before.length] as (typeof table.$inferSelect)[])[0]!;
      } catch (err) {
        if (isClaimTaken(err)) return null;
        throw err;
      }
    },
    /** The starts of the claimed cells in [from, to), but for those of the appointment `except` (one being moved). */
    async claimedCells(from: Date, to: Date, except?: string): Promise<Date[]> {
      const rows = await db
        .select({ startsAt: claims.startsAt })
        .from(claims)
        .where(and(gte(claims.startsAt, from), lt(claims.startsAt, to), except ? ne(claims.appointmentId, except) : undefined))
        .orderBy(claims.startsAt);
      return rows.map((r) => r.startsAt);
    },
    /**
     * Compare-and-set: changes the status only if it is still `from`, so two admins acting at once
     * cannot move an appointment out of a terminal status. null when it was not (or no longer) `from`.
     * With `releaseSlots`, the appointment's claims go in the same transaction, so the slot is free
     * exactly when the status says so; the delete re-reads the status, so it only releases when the
     * update took effect.
     */
    async setStatus(
      id: string,
      from: string,
      to: string,
      { releaseSlots = false, cancellationReason = null }: { releaseSlots?: boolean; cancellationReason?: string | null } = {},
    ) {
      const change = { status: to, ...(cancellationReason ? { cancellationReason } : {}) };
      if (!releaseSlots) {
        const [row] = await db
          .update(table)
          .set(change)
          .where(and(eq(table.id, id), eq(table.status, from)))
          .returning();
        return row ?? null;
      }
      const [[row]] = await inTransaction(database, (tx) => [
        tx
          .update(table)
          .set(change)
          .where(and(eq(table.id, id), eq(table.status, from)))
          .returning(),
        tx
          .delete(claims)
          .where(and(eq(claims.appointmentId, id), sql`exists (select 1 from ${table} where ${table.id} = ${id} and ${table.status} = ${to})`))
          .returning({ startsAt: claims.startsAt }),
      ]);
      return row ?? null;
    },
    /**
     * Moves an appointment to `to`, if it is still at `from` with status `status` (compare-and-set, as
     * setStatus): in one transaction its old cells are freed, it is moved (scheduled again: a
     * confirmation was for the old time; `reminderSent` decided anew), and the new cells are claimed.
     * 'taken' when a new cell is held by another booking (nothing changes then); 'changed' when the
     * appointment was changed meanwhile (its claims stay as they were). The new cells may overlap the
     * old ones. A move the firm made in its own calendar (`byFirm`) keeps its status and, as a booking
     * from an external calendar does, claims only the cells still free: it happened there already.
     */
    async reschedule(
      id: string,
      { from, status }: { from: Date; status: string },
      { to, cells, reminderSent, byFirm = false }: { to: Date; cells: readonly Date[]; reminderSent: boolean; byFirm?: boolean },
    ): Promise<{ row: typeof table.$inferSelect } | { refused: 'taken' | 'changed' }> {
      const sorted = [...cells].sort((a, b) => a.getTime() - b.getTime());
      const stillAt = (when: Date, withStatus?: string) =>
        sql`exists (select 1 from ${table} where ${table.id} = ${id} and ${table.scheduledDate} = ${sql.param(when, table.scheduledDate)}${
          withStatus ? sql` and ${table.status} = ${withStatus}` : sql``
        })`;
      try {
        const [, [row]] = await atomically(database, (tx) => [
          // 1. The old cells, only while the appointment is still as it was read.
          tx
            .delete(claims)
            .where(and(eq(claims.appointmentId, id), stillAt(from, status)))
            .returning({ startsAt: claims.startsAt }),
          // 2. The move itself.
          tx
            .update(table)
            .set({ scheduledDate: to, status: byFirm ? status : 'scheduled', reminderSent })
            .where(and(eq(table.id, id), eq(table.scheduledDate, from), eq(table.status, status)))
            .returning(),
          // 3. The new cells: a cell another booking holds refuses the whole transaction (the firm's
          // own move leaves it to that booking).
          byFirm
            ? tx
                .insert(claims)
                .values(sorted.map((startsAt) => ({ startsAt, appointmentId: id })))
                .onConflictDoNothing()
                .returning({ startsAt: claims.startsAt })
            : tx
                .insert(claims)
                .values(sorted.map((startsAt) => ({ startsAt, appointmentId: id })))
                .returning({ startsAt: claims.startsAt }),
          // 4. If the move did not happen (changed meanwhile), the cells of 3 are given back.
          tx
            .delete(claims)
            .where(and(eq(claims.appointmentId, id), inArray(claims.startsAt, sorted), sql`not ${stillAt(to)}`))
            .returning({ startsAt: claims.startsAt }),
        ]);
        return row ? { row } : { refused: 'changed' };
      } catch (err) {
        if (isClaimTaken(err)) return { refused: 'taken' };
        throw err;
      }
    },
    /**
     * The live (scheduled or confirmed) appointments whose time overlaps [from, to), but for `except`:
     * their whole time is busy whatever cells they hold (a Calendly booking holds only the cells that
     * were free when it came). None lasts over a day (Calendly's are refused beyond), so only those
     * starting in the day before `to`'s range can reach into it.
     */
    async liveDuring(from: Date, to: Date, statuses: readonly string[], except?: string) {
      const rows = await db
        .select({
          id: table.id,
          scheduledDate: table.scheduledDate,
          duration: table.duration,
          consultationType: table.consultationType,
          externalEventId: table.externalEventId,
        })
        .from(table)
        .where(
          and(
            inArray(table.status, [...statuses]),
            gte(table.scheduledDate, new Date(from.getTime() - 24 * 60 * 60_000)),
            lt(table.scheduledDate, to),
            except ? ne(table.id, except) : undefined,
          ),
        )
        .orderBy(asc(table.scheduledDate));
      return rows.filter((r) => r.scheduledDate.getTime() + r.duration * 60_000 > from.getTime());
    },
    /** The appointment an external calendar knows by this id (a Calendly invitee URI, a provider's event id). */
    async findByExternalEventId(externalEventId: string) {
      const [row] = await db.select().from(table).where(eq(table.externalEventId, externalEventId));
      return row ?? null;
    },
    /** Records the event a calendar provider created for the appointment. */
    async setExternalEventId(id: string, externalEventId: string) {
      const [row] = await db.update(table).set({ externalEventId }).where(eq(table.id, id)).returning();
      return row ?? null;
    },
    /**
     * An appointment booked elsewhere (a Calendly webhook). It already happened there, so it
     * is recorded whatever the grid says: the cells still free are claimed in the same transaction
     * (ON CONFLICT DO NOTHING leaves a cell another booking holds to that booking), so the site stops
     * offering that time, and nothing refuses the booking itself. null when an appointment with this
     * externalEventId exists already (the unique index decides, so a webhook delivered twice, even at
     * the same moment, books once). `after`: what commits with it (its deliveries, decision 022).
     */
    async createFromExternalCalendar(
      values: AppointmentValues & { externalEventId: string; id?: string },
      cells: readonly Date[],
      after: readonly Write[] = [],
    ) {
      const id = values.id ?? crypto.randomUUID();
      const sorted = [...cells].sort((a, b) => a.getTime() - b.getTime());
      try {
        const [[row]] = await atomically(database, (tx) => [
          tx
            .insert(table)
            .values({ ...values, id })
            .returning(),
          tx
            .insert(claims)
            .values(sorted.map((startsAt) => ({ startsAt, appointmentId: id })))
            .onConflictDoNothing()
            .returning({ startsAt: claims.startsAt }),
          ...after.map((write) => write(tx)),
        ]);
        return row!;
      } catch (err) {
        if (isExternalEventIdTaken(err)) return null;
        throw err;
      }
    },
    /** Appointments in these statuses starting in (from, to] whose reminder is not settled yet, soonest first. */
    dueForReminder: (from: Date, to: Date, statuses: readonly string[], limit: number) =>
      db
        .select({ id: table.id, email: table.email })
        .from(table)
        .where(and(eq(table.reminderSent, false), inArray(table.status, [...statuses]), gt(table.scheduledDate, from), lte(table.scheduledDate, to)))
        .orderBy(asc(table.scheduledDate))
        .limit(limit),
    /** Sets reminderSent; conditional, so it never undoes anything. */
    async markReminderSent(id: string) {
      await db
        .update(table)
        .set({ reminderSent: true })
        .where(and(eq(table.id, id), eq(table.reminderSent, false)));
    },
    /** The deleted appointment, or null when there was none. The claims go with it (on delete cascade). */
    async remove(id: string) {
      const [row] = await db.delete(table).where(eq(table.id, id)).returning();
      return row ?? null;
    },
  };
}
