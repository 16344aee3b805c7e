import { bodyLimit } from 'hono/body-limit';
import type { Deps } from '../deps.ts';
import { errorBody } from '../http/errors.ts';
import { rateLimit } from '../http/rate-limit.ts';
import { adminRouter, router } from '../http/routes.ts';
import { calendarLog } from './calendar-notices.ts';
import { calendarInbound, type NotificationAnswer } from './calendar-inbound.ts';
import { CALENDLY_SIGNATURE_HEADER, type CalendlyDeps, calendlyWebhooks } from './calendly.ts';

/**
 * Google's notifications carry everything in headers (their body is empty); Graph's batch a few
 * changes. Anything bigger is not theirs.
 */
const GOOGLE_NOTIFICATION_BYTES = 1024;
const OUTLOOK_NOTIFICATION_BYTES = 32 * 1024;

/**
 * What calendar providers call. Public (Calendly signs instead of signing in; Google and Microsoft
 * send back the secret the site gave their channel). A refusal says nothing of why: whoever sent it
 * learns neither which channels exist nor which part was wrong. And the admin's calendar log.
 */
export function calendarSyncRoutes(deps: CalendlyDeps & Pick<Deps, 'integrations' | 'rateLimits'>) {
  const calendly = calendlyWebhooks(deps);
  const inbound = calendarInbound(deps);
  const limited = rateLimit(deps, 'calendarPush');
  const sizeLimit = (maxSize: number) => bodyLimit({ maxSize, onError: (c) => errorBody(c, 413, 'Request body is too large.') });
  const refused = (answer: NotificationAnswer) => (answer.status === 400 ? 'Not a notification this site accepts.' : 'Not accepted.');
  return {
    public: router()
      .post('/integrations/calendly/webhook', async (c) => {
        // The raw text: the signature covers the exact bytes Calendly sent.
        const { status, body } = await calendly.receive(await c.req.text(), c.req.header(CALENDLY_SIGNATURE_HEADER));
        return c.json(body, status);
      })
      .post('/integrations/google/notifications', limited, sizeLimit(GOOGLE_NOTIFICATION_BYTES), async (c) => {
        const answer = await inbound.googleNotification({
          channelId: c.req.header('x-goog-channel-id'),
          token: c.req.header('x-goog-channel-token'),
          state: c.req.header('x-goog-resource-state'),
        });
        return answer.status === 200 ? c.body(null, 200) : errorBody(c, answer.status, refused(answer));
      })
      .post('/integrations/outlook/notifications', limited, sizeLimit(OUTLOOK_NOTIFICATION_BYTES), async (c) => {
        const answer = await inbound.outlookNotification(c.req.query('validationToken'), await c.req.text());
        // Graph's handshake: the token echoed as plain text (nosniff is on every answer).
        if (answer.text !== undefined) return c.text(answer.text, 200);
        return answer.status === 202 ? c.body(null, 202) : errorBody(c, answer.status, refused(answer));
      }),
    // The Integrations screen's Calendar log (decision 036), latest first.
    admin: adminRouter().get('/calendar-notices', async (c) => c.json(await calendarLog(deps))),
    stop: () => inbound.settled(),
  };
}
