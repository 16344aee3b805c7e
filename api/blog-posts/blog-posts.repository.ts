import { and, asc, count, desc, eq, gt, lte } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { unchangedColumn } from '../crypto/reseal.ts';
import type { BlogPostSummaryField } from '../../src/shared/schemas/blog-posts.ts';

export type BlogPostValues = {
  title: string;
  slug: string;
  excerpt: string;
  content: string;
  category: string;
  author: string;
  isPublished: boolean;
  publishedAt: Date | null;
  /** Set when the post is unpublished: its preview links made before stop working (decision 042). */
  previewsRevokedAt?: Date;
};

export function blogPostsRepository({ db, t }: Database) {
  const posts = t.blogPosts;
  const redirects = t.blogPostRedirects;
  const summary = {
    id: posts.id,
    title: posts.title,
    slug: posts.slug,
    excerpt: posts.excerpt,
    category: posts.category,
    author: posts.author,
    publishedAt: posts.publishedAt,
    /** For the sitemap's lastmod: the list is all it reads. */
    updatedAt: posts.updatedAt,
  };
  /**
   * Published and live at `now`: a post whose publish date is still to come is scheduled, and shown
   * nowhere until that moment (scheduled-publishing.ts republishes then).
   */
  const live = (now: Date) => and(eq(posts.isPublished, true), lte(posts.publishedAt, now));
  return {
    listPublished: (now: Date) => db.select(summary).from(posts).where(live(now)).orderBy(desc(posts.publishedAt), desc(posts.createdAt)),
    /** A slice of the published list (`limit` from `offset`), with only `fields` when given. */
    listPublishedPart({ now, limit, offset = 0, fields }: { now: Date; limit?: number; offset?: number; fields?: readonly BlogPostSummaryField[] }) {
      const selection = fields ? Object.fromEntries(fields.map((field) => [field, summary[field]])) : summary;
      const query = db
        .select(selection as typeof summary)
        .from(posts)
        .where(live(now))
        .orderBy(desc(posts.publishedAt), desc(posts.createdAt))
        .$dynamic();
      return limit === undefined ? query : query.limit(limit).offset(offset);
    },
    async countPublished(now: Date): Promise<number> {
      const [row] = await db.select({ total: count() }).from(posts).where(live(now));
      return Number(row?.total ?? 0);
    },
    /** The next moment a scheduled post goes live after `now`, or null. */
    async nextScheduled(now: Date): Promise<Date | null> {
      const [row] = await db
        .select({ at: posts.publishedAt })
        .from(posts)
        .where(and(eq(posts.isPublished, true), gt(posts.publishedAt, now)))
        .orderBy(asc(posts.publishedAt))
        .limit(1);
      return row?.at ?? null;
    },
    /** The slugs of the posts that went live after `since`, up to `now`. */
    async wentLive(since: Date, now: Date): Promise<string[]> {
      const rows = await db
        .select({ slug: posts.slug })
        .from(posts)
        .where(and(eq(posts.isPublished, true), gt(posts.publishedAt, since), lte(posts.publishedAt, now)));
      return rows.map((r) => r.slug);
    },
    listAll: () => db.select().from(posts).orderBy(desc(posts.createdAt)),
    async findById(id: string) {
      const [row] = await db.select().from(posts).where(eq(posts.id, id));
      return row ?? null;
    },
    async findPublishedBySlug(slug: string, now: Date) {
      const [row] = await db
        .select()
        .from(posts)
        .where(and(eq(posts.slug, slug), live(now)));
      return row ?? null;
    },
    async publishedSlugs(now: Date) {
      const rows = await db.select({ slug: posts.slug }).from(posts).where(live(now));
      return rows.map((r) => r.slug);
    },
    /** Earlier slugs whose post is live (the others answer 404). */
    async redirectsToPublished(now: Date) {
      const rows = await db.select({ oldSlug: redirects.oldSlug }).from(redirects).innerJoin(posts, eq(redirects.postId, posts.id)).where(live(now));
      return rows.map((r) => r.oldSlug);
    },
    async findRedirect(oldSlug: string) {
      const [row] = await db.select({ postId: redirects.postId }).from(redirects).where(eq(redirects.oldSlug, oldSlug));
      return row?.postId ?? null;
    },
    async create(values: BlogPostValues) {
      const [row] = await db.insert(posts).values(values).returning();
      return row!;
    },
    async update(id: string, values: BlogPostValues) {
      const [row] = await db.update(posts).set(values).where(eq(posts.id, id)).returning();
      return row ?? null;
    },
    /** Refuses the post's preview links made before `now`; null when there is no such post. */
    async revokePreviews(id: string, now: Date): Promise<{ previewsRevokedAt: Date } | null> {
      const [row] = await db
        .update(posts)
        .set({ previewsRevokedAt: now, updatedAt: unchangedColumn(posts.updatedAt) })
        .where(eq(posts.id, id))
        .returning({ previewsRevokedAt: posts.previewsRevokedAt });
      return row ? { previewsRevokedAt: row.previewsRevokedAt! } : null;
    },
    async remove(id: string) {
      const rows = await db.delete(posts).where(eq(posts.id, id)).returning({ id: posts.id, slug: posts.slug });
      return rows[0] ?? null;
    },
    /** The old slug now leads to this post (a later rename of another post may take it over). */
    async rememberOldSlug(oldSlug: string, postId: string) {
      await db.insert(redirects).values({ oldSlug, postId }).onConflictDoUpdate({ target: redirects.oldSlug, set: { postId } });
    },
    /** Every earlier slug that still leads to this post. */
    async oldSlugsOf(postId: string) {
      const rows = await db.select({ oldSlug: redirects.oldSlug }).from(redirects).where(eq(redirects.postId, postId));
      return rows.map((r) => r.oldSlug);
    },
    /** A slug in live use by a post is no longer a redirect. */
    async releaseSlug(slug: string) {
      await db.delete(redirects).where(eq(redirects.oldSlug, slug));
    },
  };
}
