import { desc, eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import type { ContactInput } from '../../src/shared/schemas/contact.ts';

type ContactValues = Required<{ [K in keyof ContactInput]: Exclude<ContactInput[K], undefined> }>;

export function contactSubmissionsRepository({ db, t }: Database) {
  const table = t.contactSubmissions;
  return {
    listAll: () => db.select().from(table).orderBy(desc(table.createdAt)),
    async create(values: ContactValues & { createdAt: Date }) {
      const [row] = await db.insert(table).values(values).returning();
      return row!;
    },
    async setFlag(id: string, flag: 'isRead' | 'isResolved') {
      const [row] = await db.update(table).set({ [flag]: true }).where(eq(table.id, id)).returning();
      return row ?? null;
    },
  };
}
