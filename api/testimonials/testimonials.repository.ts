import { desc, eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';

export type TestimonialValues = {
  clientName: string;
  rating: number;
  content: string;
  practiceArea: string;
  isPublished: boolean;
};

export function testimonialsRepository({ db, t }: Database) {
  const table = t.testimonials;
  return {
    listPublished: () =>
      db
        .select({
          id: table.id,
          clientName: table.clientName,
          rating: table.rating,
          content: table.content,
          practiceArea: table.practiceArea,
          createdAt: table.createdAt,
        })
        .from(table)
        .where(eq(table.isPublished, true))
        .orderBy(desc(table.createdAt)),
    listAll: () => db.select().from(table).orderBy(desc(table.createdAt)),
    async create(values: TestimonialValues) {
      const [row] = await db.insert(table).values(values).returning();
      return row!;
    },
    async update(id: string, values: Partial<TestimonialValues>) {
      const [row] = await db.update(table).set(values).where(eq(table.id, id)).returning();
      return row ?? null;
    },
    async remove(id: string) {
      const rows = await db.delete(table).where(eq(table.id, id)).returning({ id: table.id });
      return rows.length > 0;
    },
  };
}
