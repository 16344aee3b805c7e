import { consultationMinutes, type ConsultationType } from '../../src/shared/constants.ts';
import { appointmentInput, appointmentStatusUpdate, availabilityQuery } from '../../src/shared/schemas/appointments.ts';
import { idParam } from '../../src/shared/schemas/fields.ts';
import type { Deps } from '../deps.ts';
import { honeypot } from '../http/honeypot.ts';
import { idempotency, storedAnswer } from '../http/idempotency.ts';
import { rateLimit } from '../http/rate-limit.ts';
import { adminRouter, router } from '../http/routes.ts';
import { jsonBody, pathParams, queryParams } from '../http/validate.ts';
import { appointmentsService } from './appointments.service.ts';

/** The visitor gets back what identifies the booking, not the personal details they sent. */
const answerOf = ({
  id,
  consultationType,
  scheduledDate,
  duration,
  status,
}: {
  id: string;
  consultationType: string;
  scheduledDate: Date;
  duration: number;
  status: string;
}) => ({
  id,
  consultationType,
  scheduledDate,
  duration,
  status,
});

/** What a bot's booking is answered with: a booking's shape, for a slot that stays free. */
const decoy = ({ consultationType, scheduledDate }: { consultationType: ConsultationType; scheduledDate: Date }) => ({
  id: crypto.randomUUID(),
  consultationType,
  scheduledDate,
  duration: consultationMinutes(consultationType),
  status: 'scheduled',
});

export function appointmentsRoutes(deps: Pick<Deps, 'database' | 'clock' | 'activity' | 'log' | 'rateLimits'>) {
  const service = appointmentsService(deps);
  return {
    public: router()
      // Limited per client (the daily cap keeps a few clients from taking a year of slots), and
      // a bot's booking (the honeypot filled) is answered alike and takes nothing. Decision 016: a retry
      // with the same Idempotency-Key gets this answer again, not a second booking (nor a 409 for its own slot).
      .post('/appointments', rateLimit(deps, 'booking'), idempotency(deps), jsonBody(appointmentInput), async (c) => {
        const { caught, input } = honeypot(c, c.req.valid('json'), deps.log);
        const row = caught ? decoy(input) : await service.book(input, (booking) => storedAnswer(c, 201, answerOf(booking)));
        return c.json(answerOf(row), 201);
      })
      // The booking modal's slot list for one firm day (public; no personal data in the answer).
      .get('/appointments/availability', rateLimit(deps, 'availability'), queryParams(availabilityQuery), async (c) =>
        c.json(await service.availability(c.req.valid('query'))),
      ),
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
