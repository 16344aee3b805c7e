import { and, asc, desc, eq, gte, inArray, isNull, lt, lte, or, type SQL, sql } from 'drizzle-orm';
import type { Database, Tables } from '../../db/client.ts';
import { unfinishedDeliveryStatuses } from '../../db/schema/model.ts';
import { atomically, type Write } from '../../db/transactions.ts';

export type Delivery = Tables['deliveries']['$inferSelect'];
export type DeliveryChannel = 'email' | 'calendar';
/** `held`: an e-mail kept in the development outbox because no email setting was configured; never sent. */
export type DeliveryStatus = 'pending' | 'sending' | 'sent' | 'held' | 'failed' | 'skipped';

export interface NewDelivery {
  channel: DeliveryChannel;
  /** What the delivery is for, in a word or two: 'booking-confirmation', 'reminder', 'event-create'. */
  purpose: string;
  payload: unknown;
  appointmentId?: string | null;
  integrationId?: string | null;
  /** Who or where it goes (an address, a provider): shown in the delivery log. */
  recipient?: string | null;
  /** A second delivery with the same key is not stored (exactly-once by database rule). */
  dedupeKey?: string | null;
  /** Not before this instant (default: now). */
  notBefore?: Date;
}

let lastMs = 0;
let sequence = 0;

/** Random bytes drawn 4 KB at a time: one getRandomValues call per id was 2-3 % of a booking's CPU. */
const pool = new Uint8Array(4096);
let drawn = pool.length;
function randomBytes8(): Uint8Array {
  if (drawn + 8 > pool.length) {
    crypto.getRandomValues(pool);
    drawn = 0;
  }
  return pool.slice(drawn, (drawn += 8));
}

/**
 * A time-ordered id (the layout of a UUIDv7: milliseconds, then a per-process sequence, then random),
 * so deliveries enqueued in the same millisecond keep their order: a channel's deliveries run, and the
 * log lists them, by (createdAt, id), and a confirmation queued before a notification goes first.
 */
export function timeOrderedId(now = Date.now()): string {
  if (now > lastMs) {
    lastMs = now;
    sequence = 0;
  } else if (++sequence > 0xfff) {
    lastMs += 1; // more than 4,096 in one millisecond: borrow the next one
    sequence = 0;
  }
  const random = randomBytes8();
  const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  const time = lastMs.toString(16).padStart(12, '0');
  const variant = ((random[0]! & 0x3f) | 0x80).toString(16) + hex(random.subarray(1, 2));
  return `${time.slice(0, 8)}-${time.slice(8)}-7${sequence.toString(16).padStart(3, '0')}-${variant}-${hex(random.subarray(2))}`;
}

/**
 * Every write goes through `atomically` (db/transactions.ts): on SQLite the deliveries a burst of
 * bookings enqueues, and the claims and outcomes of deliveries running side by side, share their
 * commits with each other and with the bookings themselves, instead of costing an fsync each.
 */
/** A delivery's row as it is first stored: pending, due at `notBefore` (default now). */
export function newDeliveryRow(values: NewDelivery, now: Date) {
  return {
    id: timeOrderedId(),
    channel: values.channel,
    purpose: values.purpose,
    payload: JSON.stringify(values.payload ?? null),
    appointmentId: values.appointmentId ?? null,
    integrationId: values.integrationId ?? null,
    recipient: values.recipient ?? null,
    dedupeKey: values.dedupeKey ?? null,
    nextAttemptAt: values.notBefore ?? now,
  };
}

/**
 * The transactional outbox (docs/decisions/022): deliveries stored by the transaction that stores
 * what they announce (a booking, a message), so neither commits without the other. A delivery whose
 * dedupeKey exists already is left out. The runner is woken after the commit (DeliveryQueue.queued).
 */
export function deliveriesWrite({ t }: Database, deliveries: readonly NewDelivery[], now: Date): Write {
  return (tx) =>
    tx
      .insert(t.deliveries)
      .values(deliveries.map((values) => newDeliveryRow(values, now)))
      .onConflictDoNothing()
      .returning({ id: t.deliveries.id });
}

/** The externalRef of a delivery released from hold and not sent yet (deliveriesRepository.releaseHeld). */
export const RELEASED_FROM_HOLD = 'released-from-hold';

export function deliveriesRepository(database: Database) {
  const { db, t } = database;
  const table = t.deliveries;
  const neverSentAfterHold = or(eq(table.status, 'held'), and(eq(table.status, 'failed'), eq(table.externalRef, RELEASED_FROM_HOLD)))!;
  const write = async <T>(statement: (tx: Database['db']) => PromiseLike<T>): Promise<T> => {
    const [result] = await atomically(database, (tx) => [statement(tx)]);
    return result as T;
  };
  return {
    /** The stored row, or null when its dedupeKey was already taken. */
    async insert(values: NewDelivery, now: Date): Promise<Delivery | null> {
      const [row] = await write((tx) => tx.insert(table).values(newDeliveryRow(values, now)).onConflictDoNothing().returning());
      return row ?? null;
    },

    /**
     * Deliveries ready to run: pending and due, or left 'sending' by a process that stopped before
     * finishing (its lease ran out). Oldest first. One appointment's deliveries on a channel run in
     * order: only the first unfinished one of each is ready (an update must not overtake its event's
     * create). Filtered here, not after the fetch, so rows that wait never fill a batch and starve the
     * others. Both the scan and the "first of its appointment" probe read partial indexes of the
     * unfinished rows only (deliveries_unfinished_idx, deliveries_unfinished_by_appointment_idx), so
     * the cost follows the queue, not the log of everything ever sent.
     */
    due(now: Date, limit: number) {
      // The partial indexes' own condition, as literals: SQLite uses a partial index only for a
      // query whose WHERE holds its condition (a bound parameter would not do).
      const unfinishedList = sql.raw(`(${unfinishedDeliveryStatuses.map((status) => `'${status}'`).join(', ')})`);
      const unfinished = sql`${table.status} in ${unfinishedList}`;
      const firstOfItsAppointment = sql`${table.id} = (select head.id from ${table} as head where head.appointment_id = ${table.appointmentId} and head.channel = ${table.channel} and head.status in ${unfinishedList} order by head.created_at, head.id limit 1)`;
      return db
        .select()
        .from(table)
        .where(
          and(
            unfinished,
            or(and(eq(table.status, 'pending'), lte(table.nextAttemptAt, now)), and(eq(table.status, 'sending'), lt(table.leaseExpiresAt, now))),
            or(isNull(table.appointmentId), firstOfItsAppointment),
          ),
        )
        .orderBy(asc(table.createdAt), asc(table.id))
        .limit(limit);
    },

    /**
     * Compare-and-set claim of a batch, in one statement: a row is claimed only if it is still as it
     * was read (status and attempts), so of processes racing for a delivery only one gets it. The rows
     * as claimed (the others were taken or changed meanwhile).
     */
    async claimAll(rows: readonly Delivery[], now: Date, leaseMs: number): Promise<Delivery[]> {
      if (!rows.length) return [];
      return write((tx) =>
        tx
          .update(table)
          .set({ status: 'sending', leaseExpiresAt: new Date(now.getTime() + leaseMs), attempts: sql`${table.attempts} + 1` as unknown as number })
          .where(or(...rows.map((row) => and(eq(table.id, row.id), eq(table.status, row.status), eq(table.attempts, row.attempts)))))
          .returning(),
      );
    },

    /** Claimed deliveries a stopping run did not start: pending again, as they were before the claim. */
    async release(ids: readonly string[]) {
      if (!ids.length) return;
      await write((tx) =>
        tx
          .update(table)
          .set({ status: 'pending', leaseExpiresAt: null, attempts: sql`${table.attempts} - 1` as unknown as number })
          .where(and(inArray(table.id, [...ids]), eq(table.status, 'sending')))
          .returning({ id: table.id }),
      );
    },

    async finish(
      id: string,
      status: Extract<DeliveryStatus, 'sent' | 'held' | 'skipped' | 'failed'>,
      fields: { now: Date; lastError?: string | null; externalRef?: string | null; externalCalendar?: string | null; recipient?: string },
    ) {
      await write((tx) =>
        tx
          .update(table)
          .set({
            status,
            // The outcome's time by the service's clock: the dashboard counts failures of the last days by it.
            updatedAt: fields.now,
            leaseExpiresAt: null,
            lastError: fields.lastError ?? null,
            ...(fields.externalRef !== undefined ? { externalRef: fields.externalRef } : {}),
            ...(fields.externalCalendar !== undefined ? { externalCalendar: fields.externalCalendar } : {}),
            ...(fields.recipient !== undefined ? { recipient: fields.recipient } : {}),
            ...(status === 'sent' ? { sentAt: fields.now } : {}),
          })
          .where(eq(table.id, id))
          .returning({ id: table.id }),
      );
    },

    async retryLater(id: string, nextAttemptAt: Date, lastError: string) {
      await write((tx) =>
        tx.update(table).set({ status: 'pending', leaseExpiresAt: null, nextAttemptAt, lastError }).where(eq(table.id, id)).returning({ id: table.id }),
      );
    },

    /**
     * A channel's unsent held deliveries queued again, as new (attempts from 0, due now), in their
     * first order: the admin's "Send held messages" once e-mail is configured. Those still held, and
     * those released before that failed for good (a wrong password, say): they were never sent, and
     * are marked (externalRef RELEASED_FROM_HOLD until a provider's reference replaces it) so that
     * they are offered again once the setting is fixed. The ids queued.
     */
    async releaseHeld(channel: DeliveryChannel, now: Date): Promise<string[]> {
      const rows = await write((tx) =>
        tx
          .update(table)
          .set({ status: 'pending', attempts: 0, nextAttemptAt: now, leaseExpiresAt: null, lastError: null, externalRef: RELEASED_FROM_HOLD })
          .where(and(eq(table.channel, channel), neverSentAfterHold))
          .returning({ id: table.id }),
      );
      return (rows as { id: string }[]).map((r) => r.id);
    },

    /**
     * The dashboard's warnings, by channel: `held`, deliveries never sent that Send held messages
     * would queue (held, or released and failed); `failed`, those that failed since `failedSince`.
     */
    async attention(failedSince: Date): Promise<{ channel: string; held: number; failed: number }[]> {
      const count = (condition: SQL) => sql<number>`cast(sum(case when ${condition} then 1 else 0 end) as integer)`;
      const failedRecently = and(eq(table.status, 'failed'), gte(table.updatedAt, failedSince))!;
      return db
        .select({ channel: table.channel, held: count(neverSentAfterHold), failed: count(failedRecently) })
        .from(table)
        .where(or(neverSentAfterHold, failedRecently))
        .groupBy(table.channel);
    },

    list(filter: { channel?: DeliveryChannel; appointmentId?: string; integrationId?: string; limit: number }) {
      const where = and(
        filter.channel ? eq(table.channel, filter.channel) : undefined,
        filter.appointmentId ? eq(table.appointmentId, filter.appointmentId) : undefined,
        filter.integrationId ? eq(table.integrationId, filter.integrationId) : undefined,
      );
      return db.select().from(table).where(where).orderBy(desc(table.createdAt), desc(table.id)).limit(filter.limit);
    },

    async findById(id: string) {
      const [row] = await db.select().from(table).where(eq(table.id, id));
      return row ?? null;
    },

    /** Whether something about this appointment is still to be sent on this channel (pending or being sent). */
    async hasUnfinished(channel: DeliveryChannel, appointmentId: string): Promise<boolean> {
      const [row] = await db
        .select({ id: table.id })
        .from(table)
        .where(and(eq(table.channel, channel), eq(table.appointmentId, appointmentId), inArray(table.status, [...unfinishedDeliveryStatuses])))
        .limit(1);
      return Boolean(row);
    },
  };
}
