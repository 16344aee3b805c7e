import { externalReviewInput, externalReviewUpdate } from '../../src/shared/schemas/external-reviews.ts';
import { idParam } from '../../src/shared/schemas/fields.ts';
import type { Deps } from '../deps.ts';
import { publicCache } from '../http/public-cache.ts';
import { adminRouter, router } from '../http/routes.ts';
import { jsonBody, pathParams } from '../http/validate.ts';
import { externalReviewsService } from './external-reviews.service.ts';

export function externalReviewsRoutes(deps: Pick<Deps, 'database' | 'events'>) {
  const service = externalReviewsService(deps);
  return {
    public: router().get(
      '/external-reviews',
      publicCache(deps, () => ['external-reviews']),
      async (c) => c.json(await service.listVisible()),
    ),
    admin: adminRouter()
      .get('/external-reviews', async (c) => c.json(await service.listAll()))
      .post('/external-reviews', jsonBody(externalReviewInput), async (c) => c.json(await service.create(c.req.valid('json')), 201))
      .put('/external-reviews/:id', pathParams(idParam), jsonBody(externalReviewUpdate), async (c) =>
        c.json(await service.update(c.req.valid('param').id, c.req.valid('json'))),
      )
      .delete('/external-reviews/:id', pathParams(idParam), async (c) => {
        await service.remove(c.req.valid('param').id);
        return c.body(null, 204);
      }),
  };
}
