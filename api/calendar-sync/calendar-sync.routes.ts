import { adminRouter, router } from '../http/routes.ts';
import { calendarLog } from './calendar-notices.ts';
import { CALENDLY_SIGNATURE_HEADER, type CalendlyDeps, calendlyWebhooks } from './calendly.ts';

/** What calendar providers call (public: Calendly signs instead of signing in), and the admin's calendar log. */
export function calendarSyncRoutes(deps: CalendlyDeps) {
  const calendly = calendlyWebhooks(deps);
  return {
    public: router().post('/integrations/calendly/webhook', async (c) => {
      // The raw text: the signature covers the exact bytes Calendly sent.
      const { status, body } = await calendly.receive(await c.req.text(), c.req.header(CALENDLY_SIGNATURE_HEADER));
      return c.json(body, status);
    }),
    // The Integrations screen's Calendar log (decision 036), latest first.
    admin: adminRouter().get('/calendar-notices', async (c) => c.json(await calendarLog(deps))),
  };
}
