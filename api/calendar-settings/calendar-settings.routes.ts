import { idParam } from '../../src/shared/schemas/fields.ts';
import { calendarSettingChange, calendarSettingInput, calendarSettingUpdate } from '../../src/shared/schemas/integrations.ts';
import type { Deps } from '../deps.ts';
import { adminRouter, router } from '../http/routes.ts';
import { jsonBody, pathParams } from '../http/validate.ts';
import { calendarSettingsService } from './calendar-settings.service.ts';

export function calendarSettingsRoutes(deps: Pick<Deps, 'database' | 'integrations' | 'secrets'>) {
  const service = calendarSettingsService(deps);
  return {
    public: router().get('/calendar-settings/active', async (c) => c.json(await service.active())),
    admin: adminRouter()
      .get('/calendar-settings', async (c) => c.json(await service.list()))
      .post('/calendar-settings', jsonBody(calendarSettingInput), async (c) => c.json(await service.create(c.req.valid('json')), 201))
      .put('/calendar-settings/:id/activate', pathParams(idParam), async (c) => c.json(await service.activate(c.req.valid('param').id)))
      // Not in SPEC (issue 19): a name, new settings, stopping it, and deleting it.
      .put('/calendar-settings/:id', pathParams(idParam), jsonBody(calendarSettingUpdate), async (c) =>
        c.json(await service.rename(c.req.valid('param').id, c.req.valid('json').name)),
      )
      .put('/calendar-settings/:id/settings', pathParams(idParam), jsonBody(calendarSettingChange), async (c) =>
        c.json(await service.changeSettings(c.req.valid('param').id, c.req.valid('json'))),
      )
      .put('/calendar-settings/:id/deactivate', pathParams(idParam), async (c) => c.json(await service.deactivate(c.req.valid('param').id)))
      .delete('/calendar-settings/:id', pathParams(idParam), async (c) => {
        await service.remove(c.req.valid('param').id);
        return c.body(null, 204);
      }),
  };
}
