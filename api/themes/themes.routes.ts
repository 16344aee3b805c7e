import { idParam } from '../../src/shared/schemas/fields.ts';
import { themeInput, themeUpdateInput } from '../../src/shared/schemas/themes.ts';
import type { Deps } from '../deps.ts';
import { adminRouter, router } from '../http/routes.ts';
import { jsonBody, pathParams } from '../http/validate.ts';
import { themesService } from './themes.service.ts';
import { publicCache } from '../http/public-cache.ts';

export function themesRoutes(deps: Pick<Deps, 'database' | 'events'>) {
  const service = themesService(deps);
  return {
    public: router().get(
      '/themes/active',
      publicCache(deps, () => ['theme']),
      async (c) => c.json(await service.active()),
    ),
    admin: adminRouter()
      .get('/themes', async (c) => c.json(await service.listAll()))
      .post('/themes', jsonBody(themeInput), async (c) => c.json(await service.create(c.req.valid('json')), 201))
      .put('/themes/:id', pathParams(idParam), jsonBody(themeUpdateInput), async (c) =>
        c.json(await service.update(c.req.valid('param').id, c.req.valid('json'))),
      )
      .put('/themes/:id/activate', pathParams(idParam), async (c) => c.json(await service.activate(c.req.valid('param').id)))
      .delete('/themes/:id', pathParams(idParam), async (c) => {
        await service.remove(c.req.valid('param').id);
        return c.body(null, 204);
      }),
  };
}
