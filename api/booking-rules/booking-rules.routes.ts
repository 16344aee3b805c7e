import { bookingRulesInput } from '../../src/shared/schemas/booking-rules.ts';
import type { Deps } from '../deps.ts';
import { publicCache } from '../http/public-cache.ts';
import { adminRouter, router } from '../http/routes.ts';
import { jsonBody } from '../http/validate.ts';
import { bookingRulesService } from './booking-rules.service.ts';

export function bookingRulesRoutes(deps: Pick<Deps, 'database' | 'events'>) {
  const service = bookingRulesService(deps);
  return {
    // The booking modal's calendar judges days with these (decision 024); kept, and purged on a save.
    public: router().get(
      '/booking-rules',
      publicCache(deps, () => ['booking-rules']),
      async (c) => c.json(await service.current()),
    ),
    admin: adminRouter()
      .get('/booking-rules', async (c) => c.json(await service.settings()))
      .put('/booking-rules', jsonBody(bookingRulesInput), async (c) => c.json(await service.save(c.req.valid('json')))),
  };
}
