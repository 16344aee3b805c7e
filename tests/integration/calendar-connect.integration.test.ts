/**
 * Connect with Google / Microsoft 365 (issue 20, docs/decisions/035): the authorization-code flow
 * with PKCE and a state bound to the admin's browser, against the fakes' consent pages and token
 * endpoints as real HTTP servers (tests/support/calendar-fakes.ts). The consent page is loaded and
 * its form posted as a browser would; the callback gets the binding cookie the connect call set.
 * Every failure ends on /admin/integrations with a fixed outcome code, and stores nothing.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { openConfig } from '../../api/crypto/sealed-config.ts';
import { bookings, NOW } from '../support/appointment-requests.ts';
import { startCalendarFakes } from '../support/calendar-fakes.ts';
import { countRows, forEachDialect, type TestContext } from '../support/test-app.ts';

const SITE = 'https://firm.example.com';
const GOOGLE_CALLBACK = `${SITE}/api/integrations/google/callback`;
const OUTLOOK_CALLBACK = `${SITE}/api/integrations/outlook/callback`;

const fakes = await startCalendarFakes();
afterAll(() => fakes.close());
fakes.google.oauth.clients.push({ clientId: 'connect-client.apps.example.com', clientSecret: 'GOCSPX-connect-secret-1234', redirectUris: [GOOGLE_CALLBACK] });
fakes.microsoft.oauth.clients.push({ clientId: 'entra-app-id', clientSecret: 'entra~secret~5678', redirectUris: [OUTLOOK_CALLBACK] });

const googleConfig = { client_id: 'connect-client.apps.example.com', client_secret: 'GOCSPX-connect-secret-1234', redirect_uri: '', calendar_id: 'primary' };
const outlookConfig = { client_id: 'entra-app-id', client_secret: 'entra~secret~5678', tenant_id: 'firm-tenant' };

const { book } = bookings('2030-07-01');

type Provider = 'google' | 'outlook';

async function integration(ctx: TestContext, provider: Provider, config: Record<string, unknown>): Promise<string> {
  const res = await ctx.admin('POST', '/api/admin/calendar-settings', { provider, config: JSON.stringify(config) });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id;
}

/** POST …/connect as the admin: the consent URL, and the binding cookie's value and attributes. */
async function begin(ctx: TestContext, id: string) {
  const res = await ctx.admin('POST', `/api/admin/calendar-settings/${id}/connect`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const setCookie = res.headers.get('set-cookie') ?? '';
  const binding = /calendar_connect=([^;]+)/.exec(setCookie)?.[1];
  expect(binding).toBeTruthy();
  return { url: new URL(res.body.authorizationUrl as string), binding: binding!, setCookie };
}

/** The consent page loaded, then its Allow or Cancel posted, as the browser does: where the provider redirects. */
async function consent(url: URL, decision: 'allow' | 'cancel' = 'allow', { untick }: { untick?: string } = {}): Promise<URL> {
  const page = await fetch(url);
  expect(page.status).toBe(200);
  expect(await page.text()).toContain('Allow');
  const answer = await fetch(`${url.origin}${url.pathname}`, {
    method: 'POST',
    body: new URLSearchParams({
      ...Object.fromEntries(url.searchParams),
      // Google's granular consent: a scope the user unticked is not granted.
      ...(untick
        ? {
            scope: url.searchParams
              .get('scope')!
              .split(' ')
              .filter((s) => s !== untick)
              .join(' '),
          }
        : {}),
      decision,
    }),
    redirect: 'manual',
  });
  expect(answer.status).toBe(302);
  return new URL(answer.headers.get('location')!);
}

/** The provider's redirect followed into the API with `cookie` (the binding; null: none): the outcome. */
async function callback(ctx: TestContext, redirect: URL, binding: string | null) {
  const res = await ctx.call('GET', `${redirect.pathname}${redirect.search}`, { headers: binding ? { cookie: `calendar_connect=${binding}` } : {} });
  expect(res.status).toBe(303);
  const to = new URL(res.headers.get('location')!, SITE);
  expect(to.pathname).toBe('/admin/integrations');
  return { outcome: to.searchParams.get('calendar'), integration: to.searchParams.get('integration'), location: to };
}

async function connect(ctx: TestContext, id: string) {
  const { url, binding } = await begin(ctx, id);
  const result = await callback(ctx, await consent(url), binding);
  expect(result.outcome).toBe('connected');
  return result;
}

async function storedRow(ctx: TestContext, id: string) {
  const { db, t } = ctx.database;
  const [row] = await db.select().from(t.calendarSettings).where(eq(t.calendarSettings.id, id));
  return row!;
}
/** The integration's config as the adapter reads it (opened). */
const openedConfig = async (ctx: TestContext, id: string) =>
  JSON.parse(openConfig(ctx.deps.secrets, (await storedRow(ctx, id)).config, { table: 'calendar-settings', id })!) as Record<string, string>;

/** A card's connection, as GET /api/admin/calendar-settings shows it. */
interface ConnectionView {
  connected: boolean;
  accountEmail: string | null;
  calendarName: string | null;
  connectedAt: string | null;
  needsReconnect: { at: string; reason: string } | null;
}

async function card(ctx: TestContext, id: string) {
  const list = await ctx.admin('GET', '/api/admin/calendar-settings');
  return (list.body as { id: string; connection: ConnectionView }[]).find((r) => r.id === id)!;
}

/** Nothing of a connection was stored: no refresh token in the config, no connection row. */
async function expectNothingStored(ctx: TestContext, id: string) {
  expect((await openedConfig(ctx, id)).refresh_token).toBeUndefined();
  expect((await card(ctx, id)).connection).toMatchObject({ connected: false, accountEmail: null });
}

const later = (ctx: TestContext, ms: number) => ctx.clock.set(new Date(ctx.clock.now().getTime() + ms));

forEachDialect(
  'calendar connect: Google',
  (ctx) => {
    beforeEach(() => {
      ctx().clock.set(NOW);
      fakes.google.resetRequests();
    });

    it('connects through the consent page: the refresh token is stored sealed, the account shown, the picker lists writable calendars and the choice is used', async () => {
      const id = await integration(ctx(), 'google', googleConfig);
      expect((await card(ctx(), id)).connection).toEqual({ connected: false, accountEmail: null, calendarName: null, connectedAt: null, needsReconnect: null });
      const { url, binding, setCookie } = await begin(ctx(), id);
      // The callback is a top-level navigation: the binding cookie is HttpOnly, Lax, for the callbacks only, Secure on https.
      expect(setCookie).toMatch(/HttpOnly/i);
      expect(setCookie).toMatch(/SameSite=Lax/i);
      expect(setCookie).toMatch(/Path=\/api\/integrations/);
      expect(setCookie).toMatch(/Secure/);
      expect(`${url.origin}${url.pathname}`).toBe(fakes.settings.googleAuthorizeUrl);
      const q = Object.fromEntries(url.searchParams);
      expect(q).toMatchObject({
        client_id: googleConfig.client_id,
        redirect_uri: GOOGLE_CALLBACK,
        response_type: 'code',
        access_type: 'offline',
        prompt: 'consent',
        include_granted_scopes: 'true',
        code_challenge_method: 'S256',
        scope: 'openid email https://www.googleapis.com/auth/calendar.events https://www.googleapis.com/auth/calendar.readonly',
      });
      expect(q.state).toMatch(/^[\w-]{43}$/);
      expect(q.code_challenge).toMatch(/^[\w-]{43}$/);
      // Neither the state nor the binding is stored as it is.
      const { db, t } = ctx().database;
      const [pending] = await db.select().from(t.calendarAuthorizations).where(eq(t.calendarAuthorizations.integrationId, id));
      expect(JSON.stringify(pending)).not.toContain(q.state);
      expect(JSON.stringify(pending)).not.toContain(binding);
      expect(pending!.adminSub).toBe('admin-sub');

      const page = await (await fetch(url)).text();
      expect(page).toContain('dana.whitfield@example-firm.test');
      expect(page).toContain('https://www.googleapis.com/auth/calendar.events');
      const result = await callback(ctx(), await consent(url), binding);
      expect(result).toMatchObject({ outcome: 'connected', integration: id });

      // The token exchange sent the code with the verifier and the same redirect URI.
      const exchange = fakes.google
        .tokenRequests()
        .find((r) => r.form().grant_type === 'authorization_code')!
        .form();
      expect(exchange).toMatchObject({ redirect_uri: GOOGLE_CALLBACK, client_id: googleConfig.client_id });
      expect(exchange.code_verifier).toMatch(/^[\w-]{43}$/);

      const [refreshToken] = [...fakes.google.oauth.refreshTokens.keys()].slice(-1);
      const stored = await storedRow(ctx(), id);
      expect(stored.config).not.toContain(refreshToken!);
      expect((await openedConfig(ctx(), id)).refresh_token).toBe(refreshToken);
      expect((await card(ctx(), id)).connection).toMatchObject({ connected: true, accountEmail: 'dana.whitfield@example-firm.test', calendarName: null });

      const calendars = await ctx().admin('GET', `/api/admin/calendar-settings/${id}/calendars`);
      expect(calendars.status).toBe(200);
      expect(calendars.body).toEqual({
        calendars: [
          { id: 'dana.whitfield@example-firm.test', name: 'dana.whitfield@example-firm.test', primary: true },
          { id: 'court-dates@group.calendar.google.com', name: 'Court dates', primary: false },
        ],
        selected: 'dana.whitfield@example-firm.test',
      });
      const listed = fakes.google.apiRequests().find((r) => r.path.endsWith('/users/me/calendarList'))!;
      expect(listed.query.minAccessRole).toBe('writer');

      // A calendar the account may only read (or any other id) is refused, and nothing changes.
      const readOnly = await ctx().admin('PUT', `/api/admin/calendar-settings/${id}/calendar`, { calendarId: 'en.usa#holiday@group.v.calendar.google.com' });
      expect(readOnly.status).toBe(400);
      expect(readOnly.body.fields.calendarId).toBe('Choose one of the calendars listed for the connected account');
      expect((await openedConfig(ctx(), id)).calendar_id).toBe('primary');

      const chosen = await ctx().admin('PUT', `/api/admin/calendar-settings/${id}/calendar`, { calendarId: 'court-dates@group.calendar.google.com' });
      expect(chosen.status).toBe(200);
      expect((await openedConfig(ctx(), id)).calendar_id).toBe('court-dates@group.calendar.google.com');
      expect((await card(ctx(), id)).connection).toMatchObject({ connected: true, calendarName: 'Court dates' });

      // The adapter uses the connection: a booking's event goes to the chosen calendar.
      expect((await ctx().admin('PUT', `/api/admin/calendar-settings/${id}/activate`)).status).toBe(200);
      const { id: appointmentId } = await book(ctx());
      await ctx().background.runDeliveries();
      const event = [...fakes.google.events.values()].find(
        (e) => (e.extendedProperties as { private?: { appointmentId?: string } } | undefined)?.private?.appointmentId === appointmentId,
      );
      expect(event?.calendarId).toBe('court-dates@group.calendar.google.com');
      expect((await ctx().admin('PUT', `/api/admin/calendar-settings/${id}/deactivate`)).status).toBe(200);
    });

    it('refuses a state it did not issue, or issued for the other provider, and stores nothing', async () => {
      const id = await integration(ctx(), 'google', googleConfig);
      const { url, binding } = await begin(ctx(), id);
      const redirect = await consent(url);
      const forged = new URL(redirect);
      forged.searchParams.set('state', 'not-a-state-this-site-issued');
      expect(await callback(ctx(), forged, binding)).toMatchObject({ outcome: 'invalid-state', integration: null });
      const wrongProvider = new URL(redirect);
      wrongProvider.pathname = '/api/integrations/outlook/callback';
      expect((await callback(ctx(), wrongProvider, binding)).outcome).toBe('invalid-state');
      const noState = new URL(redirect);
      noState.searchParams.delete('state');
      expect((await callback(ctx(), noState, binding)).outcome).toBe('invalid-state');
      await expectNothingStored(ctx(), id);
      // The real answer still works afterwards: nothing above used the state.
      expect((await callback(ctx(), redirect, binding)).outcome).toBe('connected');
    });

    it('a callback replayed is refused (state used), and a code replayed under a new state is refused by Google (invalid_grant)', async () => {
      const id = await integration(ctx(), 'google', googleConfig);
      const first = await begin(ctx(), id);
      const redirect = await consent(first.url);
      expect((await callback(ctx(), redirect, first.binding)).outcome).toBe('connected');
      const connectedConfig = (await storedRow(ctx(), id)).config;
      expect((await callback(ctx(), redirect, first.binding)).outcome).toBe('state-used');

      const second = await begin(ctx(), id);
      const replayed = new URL(redirect);
      replayed.searchParams.set('state', second.url.searchParams.get('state')!);
      expect((await callback(ctx(), replayed, second.binding)).outcome).toBe('code-refused');
      expect(fakes.google.tokenRequests().filter((r) => r.form().grant_type === 'authorization_code')).toHaveLength(2);
      expect((await storedRow(ctx(), id)).config).toBe(connectedConfig);
    });

    it('a code exchanged with another authorization’s PKCE verifier is refused (invalid_grant) and nothing is stored', async () => {
      const id = await integration(ctx(), 'google', googleConfig);
      const a = await begin(ctx(), id);
      const codeOfA = (await consent(a.url)).searchParams.get('code')!;
      const b = await begin(ctx(), id);
      const redirect = new URL(GOOGLE_CALLBACK);
      redirect.searchParams.set('state', b.url.searchParams.get('state')!);
      redirect.searchParams.set('code', codeOfA);
      expect((await callback(ctx(), redirect, b.binding)).outcome).toBe('code-refused');
      const refusal = fakes.google.requests.filter((r) => r.path === fakes.google.tokenPath);
      expect(refusal).toHaveLength(1);
      await expectNothingStored(ctx(), id);
    });

    it('consent denied (Cancel) ends with its message code and stores nothing', async () => {
      const id = await integration(ctx(), 'google', googleConfig);
      const { url, binding } = await begin(ctx(), id);
      const redirect = await consent(url, 'cancel');
      expect(redirect.searchParams.get('error')).toBe('access_denied');
      const result = await callback(ctx(), redirect, binding);
      expect(result).toMatchObject({ outcome: 'denied', integration: id });
      // Nothing the provider wrote travels on.
      expect(result.location.search).not.toContain('denied%20access');
      expect([...result.location.searchParams.keys()].sort()).toEqual(['calendar', 'integration']);
      expect(fakes.google.tokenRequests()).toHaveLength(0);
      await expectNothingStored(ctx(), id);
    });

    it('a redirect_uri other than the site’s callback is refused before sign-in, naming the URI to register; Google refuses an unregistered one', async () => {
      const id = await integration(ctx(), 'google', { ...googleConfig, redirect_uri: 'https://firm.example.com/oauth/google' });
      const before = await countRows(ctx(), 'calendarAuthorizations');
      const refused = await ctx().admin('POST', `/api/admin/calendar-settings/${id}/connect`);
      expect(refused.status).toBe(409);
      expect(refused.body.error).toContain(`Register ${GOOGLE_CALLBACK} as an Authorized redirect URI`);
      expect(refused.body.error).toContain('https://firm.example.com/oauth/google');
      expect(refused.headers.get('set-cookie')).toBeNull();
      expect(await countRows(ctx(), 'calendarAuthorizations')).toBe(before);

      // The site's own callback, not registered with this client at Google: Google's error page, no redirect.
      fakes.google.oauth.clients.push({
        clientId: 'other-client.apps.example.com',
        clientSecret: 'GOCSPX-other',
        redirectUris: ['https://elsewhere.example.com/cb'],
      });
      const other = await integration(ctx(), 'google', { ...googleConfig, client_id: 'other-client.apps.example.com', client_secret: 'GOCSPX-other' });
      const { url } = await begin(ctx(), other);
      const page = await fetch(url, { redirect: 'manual' });
      expect(page.status).toBe(400);
      expect(await page.text()).toContain('Error 400: redirect_uri_mismatch');

      // A client without its secret cannot begin.
      const noSecret = await integration(ctx(), 'google', { client_id: 'x' });
      const missing = await ctx().admin('POST', `/api/admin/calendar-settings/${noSecret}/connect`);
      expect(missing.status).toBe(409);
      expect(missing.body.error).toContain('"client_secret"');
    });

    it('the binding cookie missing or different (another browser) is refused, and nothing is stored', async () => {
      const id = await integration(ctx(), 'google', googleConfig);
      const a = await begin(ctx(), id);
      expect((await callback(ctx(), await consent(a.url), null)).outcome).toBe('browser-mismatch');
      const b = await begin(ctx(), id);
      expect((await callback(ctx(), await consent(b.url), a.binding)).outcome).toBe('browser-mismatch');
      expect(fakes.google.tokenRequests()).toHaveLength(0);
      await expectNothingStored(ctx(), id);
    });

    it('a state older than ten minutes has expired and stores nothing', async () => {
      const id = await integration(ctx(), 'google', googleConfig);
      const { url, binding } = await begin(ctx(), id);
      const redirect = await consent(url);
      later(ctx(), 10 * 60_000 + 1000);
      expect((await callback(ctx(), redirect, binding)).outcome).toBe('expired');
      expect(fakes.google.tokenRequests()).toHaveLength(0);
      await expectNothingStored(ctx(), id);
    });

    it('calendar access unticked on the consent page is not a connection: nothing is stored', async () => {
      const id = await integration(ctx(), 'google', googleConfig);
      const { url, binding } = await begin(ctx(), id);
      const redirect = await consent(url, 'allow', { untick: 'https://www.googleapis.com/auth/calendar.events' });
      expect((await callback(ctx(), redirect, binding)).outcome).toBe('scope-missing');
      await expectNothingStored(ctx(), id);
    });

    it('Google down at the token exchange (5xx or no answer) ends as provider-down and stores nothing', async () => {
      const id = await integration(ctx(), 'google', googleConfig);
      const { url, binding } = await begin(ctx(), id);
      fakes.google.failNext(1, { status: 503, match: (r) => r.path === fakes.google.tokenPath });
      expect((await callback(ctx(), await consent(url), binding)).outcome).toBe('provider-down');
      await expectNothingStored(ctx(), id);
    });

    it('a revoked grant marks the connection as needing reconnecting (time and Google’s reason); reconnecting clears it', async () => {
      const id = await integration(ctx(), 'google', googleConfig);
      await connect(ctx(), id);
      expect((await ctx().admin('PUT', `/api/admin/calendar-settings/${id}/activate`)).status).toBe(200);
      fakes.google.revokeGrants();
      const { id: appointmentId } = await book(ctx());
      await ctx().background.runDeliveries();
      const deliveries = await ctx().admin('GET', `/api/admin/deliveries?channel=calendar&appointmentId=${appointmentId}`);
      expect(deliveries.body[0]).toMatchObject({ status: 'failed' });
      expect(deliveries.body[0].lastError).toContain('invalid_grant');
      const { connection } = await card(ctx(), id);
      expect(connection).toMatchObject({ connected: true, needsReconnect: { at: new Date(NOW).toISOString(), reason: 'Token has been expired or revoked.' } });
      // The picker says so too, as a 409 the admin can act on.
      const list = await ctx().admin('GET', `/api/admin/calendar-settings/${id}/calendars`);
      expect(list.status).toBe(409);
      await connect(ctx(), id);
      expect((await card(ctx(), id)).connection.needsReconnect).toBeNull();
      expect((await ctx().admin('PUT', `/api/admin/calendar-settings/${id}/deactivate`)).status).toBe(200);
    });

    it('Disconnect revokes the grant at Google and forgets it; when Google cannot be reached it is still forgotten, and the answer says so', async () => {
      const id = await integration(ctx(), 'google', googleConfig);
      await connect(ctx(), id);
      const token = (await openedConfig(ctx(), id)).refresh_token!;
      expect((await ctx().admin('PUT', `/api/admin/calendar-settings/${id}/activate`)).status).toBe(200);
      const res = await ctx().admin('POST', `/api/admin/calendar-settings/${id}/disconnect`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ provider: 'google', revoked: true, deactivated: true, accessPage: 'https://myaccount.google.com/permissions' });
      const revoke = fakes.google.requests.find((r) => r.path === '/google/revoke')!;
      expect(revoke.form()).toEqual({ token });
      expect(fakes.google.oauth.refreshTokens.get(token)?.revoked).toBe(true);
      await expectNothingStored(ctx(), id);
      expect((await openedConfig(ctx(), id)).client_secret).toBe(googleConfig.client_secret);
      expect((await storedRow(ctx(), id)).isActive).toBe(false);
      expect((await ctx().admin('POST', `/api/admin/calendar-settings/${id}/disconnect`)).status).toBe(409);

      await connect(ctx(), id);
      fakes.google.failNext(1, { status: 503, match: (r) => r.path === '/google/revoke' });
      const down = await ctx().admin('POST', `/api/admin/calendar-settings/${id}/disconnect`);
      expect(down.body).toMatchObject({ revoked: false, deactivated: false });
      await expectNothingStored(ctx(), id);
    });

    it('connecting again (perhaps another account) forgets what was read from the calendar before: the cursor, and the push channel is stopped', async () => {
      const id = await integration(ctx(), 'google', googleConfig);
      await connect(ctx(), id);
      expect((await ctx().admin('PUT', `/api/admin/calendar-settings/${id}/activate`)).status).toBe(200);
      await ctx().background.syncCalendarChanges();
      const { db, t } = ctx().database;
      const stateOf = async () => (await db.select().from(t.calendarSyncStates).where(eq(t.calendarSyncStates.integrationId, id)))[0]!;
      const before = await stateOf();
      expect(before.cursor).toBeTruthy();
      expect(before.channelId).toBeTruthy();

      await connect(ctx(), id);
      expect(fakes.google.stoppedChannels).toContain(before.channelId);
      expect(await stateOf()).toMatchObject({ cursor: null, channelId: null });
      expect((await ctx().admin('POST', `/api/admin/calendar-settings/${id}/disconnect`)).status).toBe(200);
    });

    it('a connected integration is not deleted until it is disconnected (the grant revoked first)', async () => {
      const id = await integration(ctx(), 'google', googleConfig);
      await connect(ctx(), id);
      const token = (await openedConfig(ctx(), id)).refresh_token!;
      const refused = await ctx().admin('DELETE', `/api/admin/calendar-settings/${id}`);
      expect(refused.status).toBe(409);
      expect(refused.body.error).toBe('It is connected to a Google account: Disconnect it first, then delete it.');
      expect(await storedRow(ctx(), id)).toBeTruthy();

      expect((await ctx().admin('POST', `/api/admin/calendar-settings/${id}/disconnect`)).status).toBe(200);
      expect(fakes.google.oauth.refreshTokens.get(token)?.revoked).toBe(true);
      expect((await ctx().admin('DELETE', `/api/admin/calendar-settings/${id}`)).status).toBe(204);
    });
  },
  { integrations: { ...fakes.settings, siteUrl: SITE } },
);

forEachDialect(
  'calendar connect: Microsoft 365',
  (ctx) => {
    beforeEach(() => {
      ctx().clock.set(NOW);
      fakes.microsoft.resetRequests();
    });

    it('connects through the consent page (delegated, PKCE), lists and picks a calendar, books into it through /me, and keeps a rotated refresh token sealed', async () => {
      const id = await integration(ctx(), 'outlook', outlookConfig);
      const { url, binding } = await begin(ctx(), id);
      expect(`${url.origin}${url.pathname}`).toBe(`${fakes.settings.microsoftLoginBase}/firm-tenant/oauth2/v2.0/authorize`);
      expect(Object.fromEntries(url.searchParams)).toMatchObject({
        client_id: 'entra-app-id',
        redirect_uri: OUTLOOK_CALLBACK,
        response_type: 'code',
        scope: 'openid email offline_access https://graph.microsoft.com/Calendars.ReadWrite',
        code_challenge_method: 'S256',
      });
      expect((await callback(ctx(), await consent(url), binding)).outcome).toBe('connected');
      const consented = (await openedConfig(ctx(), id)).refresh_token!;
      expect(fakes.microsoft.oauth.refreshTokens.has(consented)).toBe(true);
      expect((await storedRow(ctx(), id)).config).not.toContain(consented);
      expect((await card(ctx(), id)).connection).toMatchObject({ connected: true, accountEmail: 'dana.whitfield@example-firm.test' });

      const calendars = await ctx().admin('GET', `/api/admin/calendar-settings/${id}/calendars`);
      expect(calendars.body).toEqual({
        calendars: [
          { id: 'AAMkAGfake-calendar-default=', name: 'Calendar', primary: true },
          { id: 'AAMkAGfake-calendar-court=', name: 'Court dates', primary: false },
        ],
        selected: 'AAMkAGfake-calendar-default=',
      });
      expect((await ctx().admin('PUT', `/api/admin/calendar-settings/${id}/calendar`, { calendarId: 'AAMkAGfake-calendar-court=' })).status).toBe(200);
      expect((await card(ctx(), id)).connection.calendarName).toBe('Court dates');

      // The picker's refresh already rotated the token: the newest one is stored, sealed.
      const rotated = (await openedConfig(ctx(), id)).refresh_token!;
      expect(rotated).not.toBe(consented);
      expect(fakes.microsoft.oauth.refreshTokens.has(rotated)).toBe(true);
      expect((await storedRow(ctx(), id)).config).not.toContain(rotated);

      expect((await ctx().admin('PUT', `/api/admin/calendar-settings/${id}/activate`)).status).toBe(200);
      const before = fakes.microsoft.events.size;
      await book(ctx());
      await ctx().background.runDeliveries();
      const created = fakes.microsoft.apiRequests().find((r) => r.method === 'POST')!;
      expect(created.path).toBe('/graph/v1.0/me/calendars/AAMkAGfake-calendar-court%3D/events');
      expect(fakes.microsoft.events.size).toBe(before + 1);
      expect((await ctx().admin('PUT', `/api/admin/calendar-settings/${id}/deactivate`)).status).toBe(200);
    });

    it('a replayed code and a mismatched PKCE verifier are refused by the token endpoint, and nothing is stored', async () => {
      const id = await integration(ctx(), 'outlook', outlookConfig);
      const a = await begin(ctx(), id);
      const codeOfA = (await consent(a.url)).searchParams.get('code')!;
      const b = await begin(ctx(), id);
      const withB = new URL(OUTLOOK_CALLBACK);
      withB.searchParams.set('state', b.url.searchParams.get('state')!);
      withB.searchParams.set('code', codeOfA);
      expect((await callback(ctx(), withB, b.binding)).outcome).toBe('code-refused');
      await expectNothingStored(ctx(), id);
      const c = await begin(ctx(), id);
      const again = new URL(OUTLOOK_CALLBACK);
      again.searchParams.set('state', c.url.searchParams.get('state')!);
      again.searchParams.set('code', codeOfA);
      expect((await callback(ctx(), again, c.binding)).outcome).toBe('code-refused');
      await expectNothingStored(ctx(), id);
    });

    it('a revoked grant needs reconnecting with Microsoft’s reason; Disconnect forgets the token and says where to remove access', async () => {
      const id = await integration(ctx(), 'outlook', outlookConfig);
      await connect(ctx(), id);
      fakes.microsoft.revokeGrants();
      const list = await ctx().admin('GET', `/api/admin/calendar-settings/${id}/calendars`);
      expect(list.status).toBe(409);
      expect((await card(ctx(), id)).connection.needsReconnect?.reason).toContain('AADSTS50173');
      const res = await ctx().admin('POST', `/api/admin/calendar-settings/${id}/disconnect`);
      expect(res.body).toEqual({ provider: 'outlook', revoked: null, deactivated: false, accessPage: 'https://myaccount.microsoft.com' });
      await expectNothingStored(ctx(), id);
      expect((await card(ctx(), id)).connection.needsReconnect).toBeNull();
    });

    it('consent denied and the provider down end with their codes', async () => {
      const id = await integration(ctx(), 'outlook', outlookConfig);
      const denied = await begin(ctx(), id);
      expect((await callback(ctx(), await consent(denied.url, 'cancel'), denied.binding)).outcome).toBe('denied');
      const down = await begin(ctx(), id);
      const redirect = await consent(down.url);
      fakes.microsoft.failNext(1, { status: 500, match: (r) => r.path.endsWith('/oauth2/v2.0/token') });
      expect((await callback(ctx(), redirect, down.binding)).outcome).toBe('provider-down');
      await expectNothingStored(ctx(), id);
    });
  },
  { integrations: { ...fakes.settings, siteUrl: SITE } },
);

describe('calendar connect: who may begin', () => {
  it.each(['connect', 'disconnect'])('POST …/%s needs an admin token', async (action) => {
    const { createTestContext } = await import('../support/test-app.ts');
    const ctx = await createTestContext('sqlite');
    try {
      expect((await ctx.call('POST', `/api/admin/calendar-settings/${crypto.randomUUID()}/${action}`)).status).toBe(401);
    } finally {
      await ctx.background.stop();
      await ctx.database.drop();
    }
  });
});
