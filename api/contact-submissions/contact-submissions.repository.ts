import { desc, eq, like } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { atomically, type Write } from '../../db/transactions.ts';
import type { ContactInput } from '../../src/shared/schemas/contact.ts';

/** The dedupeKey of a message's notification to the firm (api/mail/mail.ts queues it). */
export const contactNotificationKey = (submissionId: string) => `contact-notification:${submissionId}`;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type ContactValues = Required<{ [K in keyof ContactInput]: Exclude<ContactInput[K], undefined> }>;

export function contactSubmissionsRepository(database: Database) {
  const { db, t } = database;
  const table = t.contactSubmissions;
  return {
    listAll: () => db.select().from(table).orderBy(desc(table.createdAt)),
    /**
     * `before`: statements that commit with the row, ahead of it (the request's idempotency key);
     * `after`: after it (the firm's notification, decision 022).
     */
    async create(
      values: ContactValues & { id: string; createdAt: Date },
      { before = [], after = [] }: { before?: readonly Write[]; after?: readonly Write[] } = {},
    ) {
      const results = await atomically(database, (tx) => [
        ...before.map((write) => write(tx)),
        tx.insert(table).values(values).returning(),
        ...after.map((write) => write(tx)),
      ]);
      return (results[before.length] as (typeof table.$inferSelect)[])[0]!;
    },
    /**
     * Deletes a message and its deliveries (their payloads hold a copy) in one transaction: a privacy
     * request. The deleted row and the deliveries' ids (to erase their held copies), or null.
     */
    async remove(id: string) {
      // Every message's id is a UUID (routes): anything else names none, and must not reach the LIKE below.
      if (!UUID.test(id)) return null;
      const deliveries = t.deliveries;
      const answers = t.idempotencyKeys;
      const [gone, , row] = await atomically(database, (tx) => [
        tx
          .delete(deliveries)
          .where(eq(deliveries.dedupeKey, contactNotificationKey(id)))
          .returning({ id: deliveries.id }),
        // The stored answer to a retried send names the message: a retry would be told it is stored.
        tx
          .delete(answers)
          .where(like(answers.responseBody, `%"id":"${id}"%`))
          .returning({ key: answers.key }),
        tx.delete(table).where(eq(table.id, id)).returning(),
      ]);
      const [removed] = row as (typeof table.$inferSelect)[];
      return removed ? { row: removed, deliveryIds: (gone as { id: string }[]).map((d) => d.id) } : null;
    },
    async exists(id: string): Promise<boolean> {
      return (await db.select({ id: table.id }).from(table).where(eq(table.id, id))).length > 0;
    },
    async setFlag(id: string, flag: 'isRead' | 'isResolved') {
      const [row] = await db
        .update(table)
        .set({ [flag]: true })
        .where(eq(table.id, id))
        .returning();
      return row ?? null;
    },
  };
}
