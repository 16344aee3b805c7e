import { and, count, desc, eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
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
  return {
    listPublished: () => db.select(summary).from(posts).where(eq(posts.isPublished, true)).orderBy(desc(posts.publishedAt), desc(posts.createdAt)),
    /** A slice of the published list (`limit` from `offset`), with only `fields` when given. */
    listPublishedPart({ limit, offset = 0, fields }: { limit?: number; offset?: number; fields?: readonly BlogPostSummaryField[] }) {
      const selection = fields ? Object.fromEntries(fields.map((field) => [field, summary[field]])) : summary;
      const query = db
        .select(selection as typeof summary)
        .from(posts)
        .where(eq(posts.isPublished, true))
        .orderBy(desc(posts.publishedAt), desc(posts.createdAt))
        .$dynamic();
      return limit === undefined ? query : query.limit(limit).offset(offset);
    },
    async countPublished(): Promise<number> {
      const [row] = await db.select({ total: count() }).from(posts).where(eq(posts.isPublished, true));
      return Number(row?.total ?? 0);
    },
    listAll: () => db.select().from(posts).orderBy(desc(posts.createdAt)),
    async findById(id: string) {
      const [row] = await db.select().from(posts).where(eq(posts.id, id));
      return row ?? null;
    },
    async findPublishedBySlug(slug: string) {
      const [row] = await db
        .select()
        .from(posts)
        .where(and(eq(posts.slug, slug), eq(posts.isPublished, true)));
      return row ?? null;
    },
    async publishedSlugs() {
      const rows = await db.select({ slug: posts.slug }).from(posts).where(eq(posts.isPublished, true));
      return rows.map((r) => r.slug);
    },
    /** Earlier slugs whose post is published (the others answer 404). */
    async redirectsToPublished() {
      const rows = await db
        .select({ oldSlug: redirects.oldSlug })
        .from(redirects)
        .innerJoin(posts, eq(redirects.postId, posts.id))
        .where(eq(posts.isPublished, true));
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
