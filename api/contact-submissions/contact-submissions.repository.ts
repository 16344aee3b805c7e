import { desc, eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { atomically, type Write } from '../../db/transactions.ts';
import type { ContactInput } from '../../src/shared/schemas/contact.ts';

type ContactValues = Required<{ [K in keyof ContactInput]: Exclude<ContactInput[K], undefined> }>;

export function contactSubmissionsRepository(database: Database) {
  const { db, t } = database;
  const table = t.contactSubmissions;
  return {
    listAll: () => db.select().from(table).orderBy(desc(table.createdAt)),
    /** `also`: statements that commit with the row, ahead of it (the request's idempotency key). */
    async create(values: ContactValues & { id: string; createdAt: Date }, also: readonly Write[] = []) {
      const results = await atomically(database, (tx) => [...also.map((write) => write(tx)), tx.insert(table).values(values).returning()]);
      return (results.at(-1) as (typeof table.$inferSelect)[])[0]!;
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
