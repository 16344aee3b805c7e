import { and, desc, eq, lte, sql } from 'drizzle-orm';
import { idParam } from '../../src/shared/schemas/fields.ts';
import { blogSourceInput } from '../../src/shared/schemas/integrations.ts';
import type { Deps } from '../deps.ts';
import { notFound } from '../http/errors.ts';
import { adminRouter, router, type FeatureRoutes } from '../http/routes.ts';
import { jsonBody, pathParams } from '../http/validate.ts';
import { maskConfig, maskUrl, maskUrlsInText } from '../integrations/secrets.ts';

/** Blog sources (admin) and the external articles they bring (public). */
export function blogSourcesRoutes({ database: { db, t }, events }: Deps): FeatureRoutes {
  const sources = t.blogSources;
  const articles = t.externalBlogArticles;
  type Source = typeof sources.$inferSelect;
  // An api-type source's URL often carries its key (?apiKey=...), and a fetch error may quote it:
  // both masked like the config.
  const safe = (row: Source) => ({ ...row, url: maskUrl(row.url)!, config: maskConfig(row.config), lastError: maskUrlsInText(row.lastError) });
  return {
    // SPEC §2/§9: a source "Shows N articles" (its displayLimit), so each active source contributes
    // at most its N newest visible articles; the list is newest first, undated articles last.
    public: router().get('/external-blog-articles', async (c) => {
      const newestFirst = [sql`${articles.publishedAt} is null`, desc(articles.publishedAt), desc(articles.fetchedAt), desc(articles.id)];
      const ranked = db
        .select({
          id: articles.id,
          sourceId: articles.sourceId,
          sourceName: sql<string>`${sources.name}`.as('source_name'),
          title: articles.title,
          url: articles.url,
          excerpt: articles.excerpt,
          author: articles.author,
          publishedAt: articles.publishedAt,
          imageUrl: articles.imageUrl,
          isVisible: articles.isVisible,
          fetchedAt: articles.fetchedAt,
          displayLimit: sql<number>`${sources.displayLimit}`.as('display_limit'),
          rank: sql<number>`row_number() over (partition by ${articles.sourceId} order by ${sql.join(newestFirst, sql`, `)})`.as('rank_in_source'),
        })
        .from(articles)
        .innerJoin(sources, eq(articles.sourceId, sources.id))
        .where(and(eq(articles.isVisible, true), eq(sources.isActive, true)))
        .as('ranked');
      const rows = await db
        .select({
          id: ranked.id,
          sourceId: ranked.sourceId,
          sourceName: ranked.sourceName,
          title: ranked.title,
          url: ranked.url,
          excerpt: ranked.excerpt,
          author: ranked.author,
          publishedAt: ranked.publishedAt,
          imageUrl: ranked.imageUrl,
          isVisible: ranked.isVisible,
          fetchedAt: ranked.fetchedAt,
        })
        .from(ranked)
        .where(lte(ranked.rank, ranked.displayLimit))
        .orderBy(sql`${ranked.publishedAt} is null`, desc(ranked.publishedAt), desc(ranked.fetchedAt), desc(ranked.id))
        .limit(200);
      return c.json(rows);
    }),
    admin: adminRouter()
      .get('/blog-sources', async (c) => c.json((await db.select().from(sources).orderBy(desc(sources.createdAt))).map(safe)))
      .post('/blog-sources', jsonBody(blogSourceInput), async (c) => {
        const [row] = await db.insert(sources).values(c.req.valid('json')).returning();
        return c.json(safe(row!), 201);
      })
      .delete('/blog-sources/:id', pathParams(idParam), async (c) => {
        // Its external articles go with it (foreign key, on delete cascade).
        const rows = await db.delete(sources).where(eq(sources.id, c.req.valid('param').id)).returning({ id: sources.id });
        if (!rows.length) throw notFound('Blog source not found');
        events.changed({ topic: 'external-articles' });
        return c.body(null, 204);
      }),
  };
}
