import { idParam } from '../../src/shared/schemas/fields.ts';
import { blogSourceInput } from '../../src/shared/schemas/integrations.ts';
import { adminRouter, router } from '../http/routes.ts';
import { jsonBody, pathParams } from '../http/validate.ts';
import { openConfig } from '../crypto/sealed-config.ts';
import { maskConfig, maskUrl, maskUrlsInText } from '../crypto/secret-masking.ts';
import type { FetchDeps } from './blog-source-fetcher.ts';
import { blogSourcesRepository } from './blog-sources.repository.ts';
import { blogSourcesService } from './blog-sources.service.ts';
import { publicCache } from '../http/public-cache.ts';

/** Blog sources (admin) and the external articles they bring (public). */
export function blogSourcesRoutes(deps: FetchDeps) {
  const service = blogSourcesService(deps);
  const repo = blogSourcesRepository(deps.database);
  // An api-type source's URL often carries its key (?apiKey=...), and a fetch error may quote it:
  // both masked like the config (opened only to show the last 4 characters of its secrets).
  const safe = <T extends { id: string; url: string; config: string | null; lastError: string | null }>(row: T) => ({
    ...row,
    url: maskUrl(row.url)!,
    config: maskConfig(openConfig(deps.secrets, row.config, { table: 'blog-sources', id: row.id }, { lenient: true }), 'blog-source'),
    lastError: maskUrlsInText(row.lastError),
  });
  return {
    public: router().get(
      '/external-blog-articles',
      publicCache(deps, () => ['external-articles']),
      async (c) => c.json(await repo.listPublicArticles()),
    ),
    admin: adminRouter()
      .get('/blog-sources', async (c) => c.json((await service.list()).map(safe)))
      .post('/blog-sources', jsonBody(blogSourceInput), async (c) => c.json(safe(await service.create(c.req.valid('json'))), 201))
      // The admin page's "Fetch now": answers when the attempt is over, with the source as it left it.
      .post('/blog-sources/:id/fetch', pathParams(idParam), async (c) => c.json(safe(await service.fetchNow(c.req.valid('param').id))))
      .delete('/blog-sources/:id', pathParams(idParam), async (c) => {
        await service.remove(c.req.valid('param').id);
        return c.body(null, 204);
      }),
  };
}
