import { consultationMinutes, type ConsultationType } from '../../src/shared/constants.ts';
import { BOOKING_TOKEN_HEADER } from '../../src/shared/booking/self-service.ts';
import {
  appointmentInput,
  appointmentStatusUpdate,
  availabilityQuery,
  manageAvailabilityQuery,
  rescheduleInput,
} from '../../src/shared/schemas/appointments.ts';
import { idParam } from '../../src/shared/schemas/fields.ts';
import type { Deps } from '../deps.ts';
import { honeypot } from '../http/honeypot.ts';
import { idempotency, storedAnswer } from '../http/idempotency.ts';
import { rateLimit } from '../http/rate-limit.ts';
import { adminRouter, router } from '../http/routes.ts';
import { jsonBody, pathParams, queryParams } from '../http/validate.ts';
import { appointmentsService } from './appointments.service.ts';
import { manageToken } from './manage-link.ts';
import { appointmentSelfService } from './self-service.ts';

/**
 * The visitor gets back what identifies the booking, not the personal details they sent, and the
 * token of its own link (manage-link.ts), which the confirmation offers to cancel or reschedule.
 */
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

/** A bot's token looks like a real one and opens nothing. */
const decoyToken = (id: string) => `${id}.${Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url')}`;

export function appointmentsRoutes(deps: Pick<Deps, 'database' | 'clock' | 'activity' | 'events' | 'log' | 'rateLimits' | 'secrets' | 'integrations'>) {
  const service = appointmentsService(deps);
  const selfService = appointmentSelfService(deps);
  const answer = (booking: Parameters<typeof answerOf>[0]) => ({ ...answerOf(booking), manageToken: manageToken(deps.secrets, booking.id) });
  return {
    public: router()
      // Limited per client (the daily cap keeps a few clients from taking a year of slots), and
      // a bot's booking (the honeypot filled) is answered alike and takes nothing. Decision 016: a retry
      // with the same Idempotency-Key gets this answer again, not a second booking (nor a 409 for its own slot).
      .post('/appointments', rateLimit(deps, 'booking'), idempotency(deps), jsonBody(appointmentInput), async (c) => {
        const { caught, input } = honeypot(c, c.req.valid('json'), deps.log);
        if (caught) {
          const row = decoy(input);
          return c.json({ ...answerOf(row), manageToken: decoyToken(row.id) }, 201);
        }
        const row = await service.book(input, (booking) => storedAnswer(c, 201, answer(booking)));
        return c.json(answer(row), 201);
      })
      // The booking modal's slot list for one firm day (public; no personal data in the answer).
      .get('/appointments/availability', rateLimit(deps, 'availability'), queryParams(availabilityQuery), async (c) =>
        c.json(await service.availability(c.req.valid('query'))),
      )
      // Self-service through the booking's own link (issue 18): the token comes in a header, never
      // in the URL (URLs are logged). No answer here is kept by any cache (api/app.ts: no-store).
      .get('/appointments/manage', rateLimit(deps, 'availability'), async (c) => c.json(await selfService.show(c.req.header(BOOKING_TOKEN_HEADER))))
      .get('/appointments/manage/availability', rateLimit(deps, 'availability'), queryParams(manageAvailabilityQuery), async (c) =>
        c.json(await selfService.availability(c.req.header(BOOKING_TOKEN_HEADER), c.req.valid('query').date)),
      )
      .post('/appointments/manage/cancel', rateLimit(deps, 'booking'), async (c) => c.json(await selfService.cancel(c.req.header(BOOKING_TOKEN_HEADER))))
      .post('/appointments/manage/reschedule', rateLimit(deps, 'booking'), jsonBody(rescheduleInput), async (c) =>
        c.json(await selfService.reschedule(c.req.header(BOOKING_TOKEN_HEADER), c.req.valid('json').scheduledDate)),
      ),
    admin: adminRouter()
      .get('/appointments', async (c) => c.json(await service.listAll()))
      .put('/appointments/:id', pathParams(idParam), jsonBody(appointmentStatusUpdate), async (c) =>
        c.json(await service.setStatus(c.req.valid('param').id, c.req.valid('json').status, { reason: c.req.valid('json').reason })),
      )
      .delete('/appointments/:id', pathParams(idParam), async (c) => {
        await service.remove(c.req.valid('param').id);
        return c.body(null, 204);
      }),
  };
}
