import { blogPostInput, blogPostsQuery } from '../../src/shared/schemas/blog-posts.ts';
import { idParam } from '../../src/shared/schemas/fields.ts';
import type { Deps } from '../deps.ts';
import { notFound } from '../http/errors.ts';
import { isInternalCall } from '../internal.ts';
import { adminRouter, router } from '../http/routes.ts';
import { jsonBody, pathParams, queryParams } from '../http/validate.ts';
import { blogPostsService } from './blog-posts.service.ts';
import { publicCache } from '../http/public-cache.ts';
import { postKey } from '../cdn/cache-policy.ts';
import { PREVIEW_TOKEN_HEADER } from '../../src/shared/blog/preview.ts';

export function blogPostsRoutes(deps: Pick<Deps, 'database' | 'events' | 'clock' | 'secrets' | 'integrations'>) {
  const service = blogPostsService(deps);
  return {
    public: router()
      .get(
        '/blog-posts',
        publicCache(deps, () => ['posts']),
        queryParams(blogPostsQuery),
        async (c) => {
          const query = c.req.valid('query');
          if (query.limit === undefined && !query.fields) return c.json(await service.listPublished());
          const { posts, total } = await service.listPublishedPart(query);
          if (total !== null) c.header('x-total-count', String(total));
          return c.json(posts);
        },
      )
      // The site's list of article pages (api/site/article-slugs.ts). Internal only: a post's earlier
      // slugs may hold words an admin renamed it to remove; visitors can only try slugs one by one.
      .get('/internal/article-slugs', async (c) => {
        if (!isInternalCall(c.req.raw.headers)) throw notFound('Not found');
        return c.json(await service.articleSlugs());
      })
      // A draft's preview (its link's token in a header, never the address: preview-link.ts). Never kept.
      .get('/blog-post-preview', async (c) => {
        const { post, expiresAt } = await service.preview(c.req.header(PREVIEW_TOKEN_HEADER));
        const { title, slug, excerpt, content, category, author, isPublished, publishedAt, featuredImageUrl, featuredImageAlt, updatedAt } = post;
        return c.json({ title, slug, excerpt, content, category, author, isPublished, publishedAt, featuredImageUrl, featuredImageAlt, updatedAt, expiresAt });
      })
      // Any slug that names no published post is 'Article Not Found' (SPEC §2), so no generic 404 here.
      .get(
        '/blog-posts/:slug',
        publicCache(deps, (c) => ['articles', postKey(c.req.param('slug') ?? '')]),
        async (c) => {
          const post = await service.getPublished(c.req.param('slug'));
          const { id, title, slug, excerpt, content, category, author, publishedAt, createdAt, updatedAt } = post;
          const { seoTitle, seoDescription, featuredImageUrl, featuredImageAlt } = post;
          return c.json({
            id,
            title,
            slug,
            excerpt,
            content,
            category,
            author,
            publishedAt,
            seoTitle,
            seoDescription,
            featuredImageUrl,
            featuredImageAlt,
            createdAt,
            updatedAt,
          });
        },
      ),
    admin: adminRouter()
      .get('/blog-posts', async (c) => c.json(await service.listAll()))
      .post('/blog-posts', jsonBody(blogPostInput), async (c) => c.json(await service.create(c.req.valid('json')), 201))
      .put('/blog-posts/:id', pathParams(idParam), jsonBody(blogPostInput), async (c) =>
        c.json(await service.update(c.req.valid('param').id, c.req.valid('json'))),
      )
      .post('/blog-posts/:id/preview-link', pathParams(idParam), async (c) => c.json(await service.previewLink(c.req.valid('param').id), 201))
      // Not in SPEC (decision 042): every preview link made so far stops working.
      .delete('/blog-posts/:id/preview-links', pathParams(idParam), async (c) => c.json(await service.revokePreviews(c.req.valid('param').id)))
      .delete('/blog-posts/:id', pathParams(idParam), async (c) => {
        await service.remove(c.req.valid('param').id);
        return c.body(null, 204);
      }),
  };
}
