import { desc, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import type { ReviewPlatform } from '../../src/shared/constants.ts';

export type ExternalReviewValues = {
  reviewerName: string;
  platform: ReviewPlatform;
  rating: number;
  content: string;
  reviewUrl: string;
  reviewedOn: string | null;
  isVisible: boolean;
};

export function externalReviewsRepository({ db, t }: Database) {
  const table = t.externalReviews;
  // Newest review first; one without a date after those with one (the same in both dialects), then
  // by when it was recorded.
  const newestFirst = [sql`${table.reviewedOn} is null`, desc(table.reviewedOn), desc(table.createdAt)] as const;
  return {
    listVisible: () =>
      db
        .select({
          id: table.id,
          reviewerName: table.reviewerName,
          platform: table.platform,
          rating: table.rating,
          content: table.content,
          reviewUrl: table.reviewUrl,
          reviewedOn: table.reviewedOn,
        })
        .from(table)
        .where(eq(table.isVisible, true))
        .orderBy(...newestFirst),
    listAll: () =>
      db
        .select()
        .from(table)
        .orderBy(...newestFirst),
    async create(values: ExternalReviewValues) {
      const [row] = await db.insert(table).values(values).returning();
      return row!;
    },
    async update(id: string, values: Partial<ExternalReviewValues>) {
      const [row] = await db.update(table).set(values).where(eq(table.id, id)).returning();
      return row ?? null;
    },
    async remove(id: string) {
      const rows = await db.delete(table).where(eq(table.id, id)).returning({ id: table.id });
      return rows.length > 0;
    },
  };
}
