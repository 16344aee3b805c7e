/**
 * The held mail's rows (outbox_messages): each message sealed whole, its id ordered by arrival
 * (dev-outbox.ts makes it), the delivery it was held for and when it was held in the clear, so the
 * store can be listed, erased, swept and bounded without opening anything.
 */
import { and, asc, count, desc, eq, inArray, isNull, lt, min } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { atomically } from '../../db/transactions.ts';

export interface OutboxRow {
  id: string;
  deliveryId: string | null;
  sealed: string;
  createdAt: Date;
}

export function outboxRepository(database: Database) {
  const { db, t } = database;
  const table = t.outboxMessages;
  const write = async <T>(statement: (tx: Database['db']) => PromiseLike<T>): Promise<T> => {
    const [result] = await atomically(database, (tx) => [statement(tx)]);
    return result as T;
  };
  const deleted = (rows: unknown) => (rows as unknown[]).length;
  return {
    /** False when a row with this id is there already (a file imported twice). */
    async insert(row: OutboxRow): Promise<boolean> {
      const rows = await write((tx) => tx.insert(table).values(row).onConflictDoNothing().returning({ id: table.id }));
      return (rows as unknown[]).length === 1;
    },

    /** Oldest first (by id, which is arrival order), at most `limit`. */
    listOldestFirst: (limit: number): Promise<OutboxRow[]> => db.select().from(table).orderBy(asc(table.id)).limit(limit),

    recent: (limit: number): Promise<OutboxRow[]> => db.select().from(table).orderBy(desc(table.id)).limit(limit),

    /** Rows held for no delivery (identity codes, copies from before messages named their delivery). */
    withoutDelivery: (): Promise<OutboxRow[]> => db.select().from(table).where(isNull(table.deliveryId)).orderBy(asc(table.id)),

    async summary(): Promise<{ messages: number; oldestAt: Date | null }> {
      const [row] = await db.select({ messages: count(), oldestAt: min(table.createdAt) }).from(table);
      const oldest = row?.oldestAt ?? null;
      // A Date through the column's mapping; the driver's raw value (epoch ms, or text) is read as one too.
      return { messages: Number(row?.messages ?? 0), oldestAt: oldest === null ? null : new Date(typeof oldest === 'string' ? oldest : Number(oldest)) };
    },

    async deleteForDeliveries(deliveryIds: readonly string[]): Promise<number> {
      if (!deliveryIds.length) return 0;
      return deleted(
        await write((tx) =>
          tx
            .delete(table)
            .where(inArray(table.deliveryId, [...deliveryIds]))
            .returning({ id: table.id }),
        ),
      );
    },

    async deleteIds(ids: readonly string[]): Promise<number> {
      if (!ids.length) return 0;
      return deleted(
        await write((tx) =>
          tx
            .delete(table)
            .where(inArray(table.id, [...ids]))
            .returning({ id: table.id }),
        ),
      );
    },

    async deleteHeldBefore(cutoff: Date): Promise<number> {
      return deleted(await write((tx) => tx.delete(table).where(lt(table.createdAt, cutoff)).returning({ id: table.id })));
    },

    /** Deletes all but the newest `keep` rows (by arrival, `keep` at least 1); how many went. */
    async keepNewest(keep: number): Promise<number> {
      const [oldestKept] = await db
        .select({ id: table.id })
        .from(table)
        .orderBy(desc(table.id))
        .limit(1)
        .offset(keep - 1);
      if (!oldestKept) return 0;
      return deleted(await write((tx) => tx.delete(table).where(lt(table.id, oldestKept.id)).returning({ id: table.id })));
    },

    /** Every row, for secrets:rotate. */
    all: (): Promise<OutboxRow[]> => db.select().from(table).orderBy(asc(table.id)),

    /** Replaces a row's sealed text if nobody changed it meanwhile; false when the row changed or went. */
    async reseal(id: string, before: string, after: string): Promise<boolean> {
      const rows = await write((tx) =>
        tx
          .update(table)
          .set({ sealed: after })
          .where(and(eq(table.id, id), eq(table.sealed, before)))
          .returning({ id: table.id }),
      );
      return (rows as unknown[]).length === 1;
    },
  };
}
