import { componentKeyParam, componentVisibilityInput, componentVisibilityUpdate } from '../../src/shared/schemas/component-visibility.ts';
import type { Deps } from '../deps.ts';
import { conflict, notFound } from '../http/errors.ts';
import { adminRouter, router } from '../http/routes.ts';
import { jsonBody, pathParams } from '../http/validate.ts';
import { publicCache } from '../http/public-cache.ts';
import { componentVisibilityRepository } from './component-visibility.repository.ts';

export function componentVisibilityRoutes({ database, events }: Pick<Deps, 'database' | 'events'>) {
  const repo = componentVisibilityRepository(database);
  const changed = (key: string) => events.changed({ topic: 'component-visibility', keys: [key] });
  return {
    // Islands and pages need to know what is hidden (ARCHITECTURE: visibility known to the islands).
    public: router().get(
      '/component-visibility',
      publicCache({ events }, () => ['components']),
      async (c) => c.json(await repo.listPublic()),
    ),
    admin: adminRouter()
      .get('/component-visibility', async (c) => c.json(await repo.listAll()))
      .put('/component-visibility/:componentKey', pathParams(componentKeyParam), jsonBody(componentVisibilityUpdate), async (c) => {
        const { componentKey } = c.req.valid('param');
        const row = await repo.setVisible(componentKey, c.req.valid('json').isVisible);
        if (!row) throw notFound('Component setting not found');
        changed(componentKey);
        return c.json(row);
      })
      .post('/component-visibility', jsonBody(componentVisibilityInput), async (c) => {
        const input = c.req.valid('json');
        const row = await repo.create(input);
        if (!row) throw conflict('A setting for this component already exists.', { componentKey: 'A setting for this component already exists' });
        changed(input.componentKey);
        return c.json(row, 201);
      }),
  };
}
