import { and, desc, eq, sql } from 'drizzle-orm';
import { idParam } from '../../src/shared/schemas/fields.ts';
import { blogSourceInput } from '../../src/shared/schemas/integrations.ts';
import type { Deps } from '../deps.ts';
import { notFound } from '../http/errors.ts';
import { adminRouter, router, type FeatureRoutes } from '../http/routes.ts';
import { jsonBody, pathParams } from '../http/validate.ts';
import { maskConfig } from '../integrations/secrets.ts';

/** Blog sources (admin) and the external articles they bring (public). */
export function blogSourcesRoutes({ database: { db, t }, events }: Deps): FeatureRoutes {
  const sources = t.blogSources;
  const articles = t.externalBlogArticles;
  type Source = typeof sources.$inferSelect;
  const safe = (row: Source) => ({ ...row, config: maskConfig(row.config) });
  return {
    public: router().get('/external-blog-articles', async (c) =>
      c.json(
        await db
          .select({
            id: articles.id,
            sourceId: articles.sourceId,
            sourceName: sources.name,
            title: articles.title,
            url: articles.url,
            excerpt: articles.excerpt,
            author: articles.author,
            publishedAt: articles.publishedAt,
            imageUrl: articles.imageUrl,
            isVisible: articles.isVisible,
            fetchedAt: articles.fetchedAt,
          })
          .from(articles)
          .innerJoin(sources, eq(articles.sourceId, sources.id))
          .where(and(eq(articles.isVisible, true), eq(sources.isActive, true)))
          .orderBy(sql`${articles.publishedAt} is null`, desc(articles.publishedAt), desc(articles.fetchedAt))
          .limit(200),
      ),
    ),
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
