import { testimonialInput, testimonialUpdate } from '../../src/shared/schemas/testimonials.ts';
import { idParam } from '../../src/shared/schemas/fields.ts';
import type { Deps } from '../deps.ts';
import { adminRouter, router } from '../http/routes.ts';
import { jsonBody, pathParams } from '../http/validate.ts';
import { testimonialsService } from './testimonials.service.ts';
import { publicCache } from '../http/public-cache.ts';

export function testimonialsRoutes(deps: Pick<Deps, 'database' | 'events'>) {
  const service = testimonialsService(deps);
  return {
    public: router().get(
      '/testimonials',
      publicCache(deps, () => ['testimonials']),
      async (c) => c.json(await service.listPublished()),
    ),
    admin: adminRouter()
      .get('/testimonials', async (c) => c.json(await service.listAll()))
      .post('/testimonials', jsonBody(testimonialInput), async (c) => c.json(await service.create(c.req.valid('json')), 201))
      .put('/testimonials/:id', pathParams(idParam), jsonBody(testimonialUpdate), async (c) =>
        c.json(await service.update(c.req.valid('param').id, c.req.valid('json'))),
      )
      .delete('/testimonials/:id', pathParams(idParam), async (c) => {
        await service.remove(c.req.valid('param').id);
        return c.body(null, 204);
      }),
  };
}
