import { appointmentInput, appointmentStatusUpdate, availabilityQuery } from '../../src/shared/schemas/appointments.ts';
import { idParam } from '../../src/shared/schemas/fields.ts';
import type { Deps } from '../deps.ts';
import { adminRouter, router, type FeatureRoutes } from '../http/routes.ts';
import { jsonBody, pathParams, queryParams } from '../http/validate.ts';
import { appointmentsService } from './appointments.service.ts';

export function appointmentsRoutes(deps: Deps): FeatureRoutes {
  const service = appointmentsService(deps);
  return {
    public: router()
      .post('/appointments', jsonBody(appointmentInput), async (c) => {
        const row = await service.book(c.req.valid('json'));
        // The visitor gets back what identifies the booking, not the personal details they sent.
        const { id, consultationType, scheduledDate, duration, status } = row;
        return c.json({ id, consultationType, scheduledDate, duration, status }, 201);
      })
      // Issue 5: the booking modal's slot list for one firm day (public; no personal data in the answer).
      .get('/appointments/availability', queryParams(availabilityQuery), async (c) => c.json(await service.availability(c.req.valid('query')))),
    admin: adminRouter()
      .get('/appointments', async (c) => c.json(await service.listAll()))
      .put('/appointments/:id', pathParams(idParam), jsonBody(appointmentStatusUpdate), async (c) =>
        c.json(await service.setStatus(c.req.valid('param').id, c.req.valid('json').status)),
      )
      .delete('/appointments/:id', pathParams(idParam), async (c) => {
        await service.remove(c.req.valid('param').id);
        return c.body(null, 204);
      }),
  };
}
