import { getCookie, setCookie } from 'hono/cookie';
import { idParam } from '../../src/shared/schemas/fields.ts';
import { calendarChoice } from '../../src/shared/schemas/integrations.ts';
import type { Deps } from '../deps.ts';
import { adminRouter, router } from '../http/routes.ts';
import { jsonBody, pathParams } from '../http/validate.ts';
import { AUTHORIZATION_TTL_MS, BINDING_COOKIE, BINDING_COOKIE_PATH, calendarConnectService } from './calendar-connect.service.ts';
import type { ConnectProvider } from './oauth-providers.ts';

/** A query value the callback reads; anything longer than any real one is as good as absent. */
const param = (value: string | undefined, max: number) => (value && value.length <= max ? value : undefined);

/**
 * Connect with Google / Microsoft 365 (issue 20): begin, calendar picker and Disconnect behind the
 * admin guard; the providers' redirects back are public (a top-level navigation, checked by state and
 * the browser binding cookie instead of the bearer token).
 */
export function calendarConnectRoutes(deps: Pick<Deps, 'database' | 'integrations' | 'secrets' | 'clock' | 'log' | 'activity' | 'events'>) {
  const service = calendarConnectService(deps);
  const secure = deps.integrations.siteUrl.startsWith('https:');
  const bindingCookie = { path: BINDING_COOKIE_PATH, httpOnly: true, sameSite: 'Lax', secure } as const;

  const callback = (provider: ConnectProvider) =>
    router().get(`/integrations/${provider}/callback`, async (c) => {
      const { outcome, integrationId } = await service.finish(provider, {
        state: param(c.req.query('state'), 512),
        code: param(c.req.query('code'), 4096),
        error: param(c.req.query('error'), 200),
        binding: param(getCookie(c, BINDING_COOKIE), 512),
      });
      // Used or not, this binding is done.
      setCookie(c, BINDING_COOKIE, '', { ...bindingCookie, maxAge: 0 });
      const to = new URLSearchParams({ calendar: outcome, ...(integrationId ? { integration: integrationId } : {}) });
      return c.redirect(`/admin/integrations?${to}`, 303);
    });

  return {
    public: router().route('/', callback('google')).route('/', callback('outlook')),
    admin: adminRouter()
      .post('/calendar-settings/:id/connect', pathParams(idParam), async (c) => {
        const { authorizationUrl, binding } = await service.begin(c.req.valid('param').id, c.get('admin').sub);
        setCookie(c, BINDING_COOKIE, binding, { ...bindingCookie, maxAge: AUTHORIZATION_TTL_MS / 1000 });
        return c.json({ authorizationUrl });
      })
      .get('/calendar-settings/:id/calendars', pathParams(idParam), async (c) => c.json(await service.calendars(c.req.valid('param').id)))
      .put('/calendar-settings/:id/calendar', pathParams(idParam), jsonBody(calendarChoice), async (c) =>
        c.json(await service.chooseCalendar(c.req.valid('param').id, c.req.valid('json').calendarId)),
      )
      .post('/calendar-settings/:id/disconnect', pathParams(idParam), async (c) => c.json(await service.disconnect(c.req.valid('param').id))),
  };
}
