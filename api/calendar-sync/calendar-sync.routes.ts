import { router } from '../http/routes.ts';
import { CALENDLY_SIGNATURE_HEADER, type CalendlyDeps, calendlyWebhooks } from './calendly.ts';

/** What calendar providers call. Public (Calendly signs instead of signing in). */
export function calendarSyncRoutes(deps: CalendlyDeps) {
  const calendly = calendlyWebhooks(deps);
  return {
    public: router().post('/integrations/calendly/webhook', async (c) => {
      // The raw text: the signature covers the exact bytes Calendly sent.
      const { status, body } = await calendly.receive(await c.req.text(), c.req.header(CALENDLY_SIGNATURE_HEADER));
      return c.json(body, status);
    }),
  };
}
