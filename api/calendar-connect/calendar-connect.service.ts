/**
 * Connect with Google / Microsoft 365 (issue 20, docs/decisions/035): the OAuth 2.0
 * authorization-code flow with PKCE (S256) and a `state` bound to the admin's browser, the refresh
 * token stored in the integration's sealed config (where the adapter, api/calendar-sync/
 * rest-calendar.ts, reads it), the calendar picker, and Disconnect.
 *
 * Begin (admin): a random state, PKCE verifier and browser binding; the state and binding kept as
 * SHA-256 hashes, the verifier sealed, for ten minutes. The binding goes to the browser as an
 * HttpOnly cookie (the callback is a top-level navigation from the provider, without the admin's
 * bearer token): an answer delivered to another browser finds no matching cookie.
 * Callback (public): the state consumed once, then checked (provider, expiry, binding), the code
 * exchanged with the verifier; any failure ends in a fixed outcome code and stores nothing.
 */
import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { ConnectOutcome } from '../../src/shared/calendar-connect.ts';
import { calendarSettingsRepository } from '../calendar-settings/calendar-settings.repository.ts';
import { calendarInbound } from '../calendar-sync/calendar-inbound.ts';
import { openSecrets } from '../calendar-sync/calendar-sync.repository.ts';
import { googleCalendar } from '../calendar-sync/google.ts';
import { outlookCalendar } from '../calendar-sync/outlook.ts';
import { outbound, restCalendar, tokenCacheFor, type CalendarApi } from '../calendar-sync/rest-calendar.ts';
import { openConfig, UnreadableSecretError } from '../crypto/sealed-config.ts';
import { PermanentDeliveryError } from '../deliveries/deliveries.ts';
import type { Deps } from '../deps.ts';
import { badRequest, conflict, HttpError, notFound } from '../http/errors.ts';
import type { SafeResponse } from '../http/outbound-fetch.ts';
import { calendarConnectRepository } from './calendar-connect.repository.ts';
import { changeConnectedConfig, configText, parseConfigObject } from './connected-config.ts';
import { accessPages, authorizationUrl, clientConfig, GOOGLE_EVENTS_SCOPE, isConnectProvider, providerNames, type ConnectProvider } from './oauth-providers.ts';

/** How long a begun connection may take (the admin signs in and consents meanwhile). */
export const AUTHORIZATION_TTL_MS = 10 * 60_000;
/** The browser binding's cookie: sent back only to the callbacks (its path). */
export const BINDING_COOKIE = 'calendar_connect';
export const BINDING_COOKIE_PATH = '/api/integrations';

type ConnectDeps = Pick<Deps, 'database' | 'integrations' | 'secrets' | 'clock' | 'log' | 'activity' | 'events'>;

const random = () => randomBytes(32).toString('base64url');
const sha256 = (value: string) => createHash('sha256').update(value).digest('base64url');
const sameHash = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** The claims of an id_token, unverified (see the callback for why that is enough here); {} when it is not one. */
function idTokenClaims(idToken: unknown): Record<string, unknown> {
  if (typeof idToken !== 'string') return {};
  try {
    const claims: unknown = JSON.parse(Buffer.from(idToken.split('.')[1] ?? '', 'base64url').toString('utf8'));
    return claims && typeof claims === 'object' ? (claims as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

const text = (value: unknown) => (typeof value === 'string' && value.trim() ? value.trim() : null);

/** A token endpoint's refusal of the code, as an outcome. */
function exchangeRefusal(res: SafeResponse): ConnectOutcome {
  let error: string | null = null;
  try {
    error = text(res.json<{ error?: unknown }>().error);
  } catch {
    /* not JSON */
  }
  if (res.status >= 500) return 'provider-down';
  if (error === 'invalid_grant') return 'code-refused';
  if (error === 'redirect_uri_mismatch') return 'redirect-mismatch';
  if (error === 'invalid_client' || error === 'unauthorized_client' || res.status === 401) return 'client-refused';
  return 'provider-error';
}

export interface CallbackInput {
  state?: string;
  code?: string;
  error?: string;
  /** The binding cookie the browser sent, if any. */
  binding?: string;
}

export function calendarConnectService(deps: ConnectDeps) {
  const settings = calendarSettingsRepository(deps.database);
  const repo = calendarConnectRepository(deps.database);
  const owner = (id: string) => ({ table: 'calendar-settings', id }) as const;
  // Access tokens, shared with the deliveries and busy-time reads of this app (memory only).
  const tokens = tokenCacheFor(deps);
  const adapters = { google: restCalendar(deps, tokens, googleCalendar), outlook: restCalendar(deps, tokens, outlookCalendar) };

  /** A Google or Outlook integration with its config opened, or the 404/409 saying why not. */
  async function connectable(id: string) {
    const row = await settings.findById(id);
    if (!row) throw notFound('Calendar integration not found');
    const provider = row.provider;
    if (!isConnectProvider(provider)) throw conflict('Only Google Calendar and Outlook integrations connect with a sign-in.');
    const config = openConfig(deps.secrets, row.config, owner(id), { lenient: true });
    if (config === null) throw conflict('Its configuration cannot be read on this server.');
    return { row, provider, config };
  }

  /** The integration's calendar API with its connected account's token; a 409 when it has none. */
  async function calendarApi(id: string): Promise<{ api: CalendarApi; provider: ConnectProvider }> {
    const { row, provider, config } = await connectable(id);
    if (!configText(parseConfigObject(config), 'refresh_token') && !(provider === 'outlook' && configText(parseConfigObject(config), 'user_email')))
      throw conflict(`Connect it with ${providerNames[provider]} first.`);
    try {
      return { api: adapters[provider].forSetting(openSecrets(deps.secrets, row)), provider };
    } catch (err) {
      if (err instanceof UnreadableSecretError) throw conflict('Its configuration cannot be read on this server.');
      if (err instanceof PermanentDeliveryError) throw conflict(err.message);
      throw err;
    }
  }

  /** A calendar request's answer, or the 409 (the account must act) / 502 (the provider failed) saying why. */
  async function request(api: CalendarApi, url: string): Promise<SafeResponse> {
    let res: SafeResponse;
    try {
      res = await api.call('GET', url);
    } catch (err) {
      if (err instanceof PermanentDeliveryError) throw conflict(err.message);
      if (err instanceof HttpError) throw err;
      throw new HttpError(502, `${api.label} could not be reached: ${(err as Error).message}`);
    }
    if (res.status === 401 || res.status === 403) throw conflict(`${api.label} refused to list the calendars (HTTP ${res.status}): connect the account again.`);
    if (!res.ok) throw new HttpError(502, `${api.label} could not list the calendars (HTTP ${res.status}). Try again in a few minutes.`);
    return res;
  }

  /** The connected account's calendars it may write to (the picker's choices). */
  async function writableCalendars(id: string) {
    const { api, provider } = await calendarApi(id);
    if (provider === 'google') {
      const res = await request(api, `${api.root}/users/me/calendarList?minAccessRole=writer`);
      const items = res.json<{ items?: { id?: unknown; summary?: unknown; summaryOverride?: unknown; primary?: unknown }[] }>().items ?? [];
      const calendars = items.flatMap((c) =>
        typeof c.id === 'string' ? [{ id: c.id, name: text(c.summaryOverride) ?? text(c.summary) ?? c.id, primary: c.primary === true }] : [],
      );
      return { calendars, selected: api.calendarId === 'primary' ? (calendars.find((c) => c.primary)?.id ?? 'primary') : api.calendarId };
    }
    const res = await request(api, `${api.root}/calendars`);
    const items = res.json<{ value?: { id?: unknown; name?: unknown; canEdit?: unknown; isDefaultCalendar?: unknown }[] }>().value ?? [];
    const calendars = items.flatMap((c) =>
      typeof c.id === 'string' && c.canEdit !== false ? [{ id: c.id, name: text(c.name) ?? c.id, primary: c.isDefaultCalendar === true }] : [],
    );
    return { calendars, selected: api.calendarId ?? calendars.find((c) => c.primary)?.id ?? null };
  }

  return {
    /**
     * Begins a connection: the provider's consent page to send the admin to, and the browser binding
     * the route sets as a cookie. Refused (409) when the config lacks the client or names another redirect URI.
     */
    async begin(id: string, adminSub: string) {
      const { provider, config } = await connectable(id);
      const client = clientConfig(provider, config, deps.integrations);
      const now = deps.clock.now();
      const state = random();
      const binding = random();
      const verifier = random();
      const authorizationId = randomUUID();
      await repo.pruneAuthorizations(new Date(now.getTime() - 24 * 60 * 60_000));
      await repo.addAuthorization({
        id: authorizationId,
        stateHash: sha256(state),
        bindingHash: sha256(binding),
        integrationId: id,
        provider,
        adminSub,
        codeVerifier: deps.secrets.seal(verifier, `calendar-authorizations:${authorizationId}:codeVerifier`),
        expiresAt: new Date(now.getTime() + AUTHORIZATION_TTL_MS),
      });
      return { authorizationUrl: authorizationUrl(provider, client, state, sha256(verifier)), binding };
    },

    /**
     * The provider's redirect back: the outcome code and, once the state is known, the integration.
     * Nothing is stored unless the outcome is 'connected'.
     */
    async finish(provider: ConnectProvider, input: CallbackInput): Promise<{ outcome: ConnectOutcome; integrationId: string | null }> {
      const pending = input.state ? await repo.authorizationByState(sha256(input.state)) : null;
      if (!pending || pending.provider !== provider) return { outcome: 'invalid-state', integrationId: null };
      const integrationId = pending.integrationId;
      const end = (outcome: ConnectOutcome) => ({ outcome, integrationId });
      // Consumed before anything else is believed: one use, even by two containers at once.
      if (!(await repo.consumeAuthorization(pending.id, deps.clock.now()))) return end('state-used');
      if (deps.clock.now() >= pending.expiresAt) return end('expired');
      if (!input.binding || !sameHash(sha256(input.binding), pending.bindingHash)) return end('browser-mismatch');
      if (input.error) return end(input.error === 'access_denied' ? 'denied' : 'provider-error');
      if (!input.code) return end('provider-error');

      const row = await settings.findById(integrationId);
      if (!row) return end('gone');
      let client: ReturnType<typeof clientConfig>;
      let verifier: string;
      try {
        client = clientConfig(provider, openConfig(deps.secrets, row.config, owner(integrationId)) ?? '', deps.integrations);
        verifier = deps.secrets.open(pending.codeVerifier, `calendar-authorizations:${pending.id}:codeVerifier`);
      } catch (err) {
        deps.log.warn('calendar connect: the configuration changed or cannot be read', { integrationId, err: (err as Error).message });
        return end('client-refused');
      }

      let res: SafeResponse;
      try {
        res = await outbound(deps, client.tokenUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
          body: new URLSearchParams({
            grant_type: 'authorization_code',
            code: input.code,
            redirect_uri: client.redirectUri,
            client_id: client.clientId,
            client_secret: client.clientSecret,
            code_verifier: verifier,
            ...(provider === 'outlook' ? { scope: client.scope } : {}),
          }).toString(),
        });
      } catch (err) {
        deps.log.warn('calendar connect: token endpoint unreachable', { integrationId, provider, err: (err as Error).message });
        return end('provider-down');
      }
      if (!res.ok) {
        deps.log.warn('calendar connect: code refused', { integrationId, provider, status: res.status });
        return end(exchangeRefusal(res));
      }
      let answer: { access_token?: unknown; refresh_token?: unknown; id_token?: unknown; scope?: unknown };
      try {
        answer = res.json();
      } catch {
        return end('provider-error');
      }
      const refreshToken = text(answer.refresh_token);
      if (!refreshToken) return end('no-refresh-token');
      // Google's consent page lets the user untick a scope: without the events the site cannot sync.
      if (provider === 'google' && typeof answer.scope === 'string' && !answer.scope.split(/\s+/).includes(GOOGLE_EVENTS_SCOPE)) {
        deps.log.warn('calendar connect: calendar access not granted', { integrationId, provider });
        return end('scope-missing');
      }
      // The id_token came straight from the provider's token endpoint over TLS, in answer to our own
      // client's request: Google's and Microsoft's guides say its signature need not be checked then.
      // Only the e-mail is read from it, to show which account is connected.
      const claims = idTokenClaims(answer.id_token);
      let email = text(claims.email) ?? text(claims.preferred_username);
      if (!email && provider === 'outlook' && typeof answer.access_token === 'string') email = await graphProfileEmail(answer.access_token);

      // The account may be another one: what was read from the previous one's calendar (its cursor,
      // its push channel, stopped with its token while that is still stored) says nothing about it.
      await calendarInbound(deps).forget(integrationId);
      const stored = await changeConnectedConfig(deps, integrationId, (config) => ({ ...config, refresh_token: refreshToken }));
      if (!stored) return end('gone');
      await repo.saveConnection(integrationId, email, deps.clock.now());
      return end('connected');
    },

    /** GET …/calendars: the connected account's writable calendars and the one chosen now. */
    calendars: writableCalendars,

    /** PUT …/calendar: appointments go to this calendar from now on (one of the listed ones). */
    async chooseCalendar(id: string, calendarId: string) {
      const { calendars } = await writableCalendars(id);
      const chosen = calendars.find((c) => c.id === calendarId);
      if (!chosen) throw badRequest('Please check the highlighted fields.', { calendarId: 'Choose one of the calendars listed for the connected account' });
      if (!(await changeConnectedConfig(deps, id, (config) => ({ ...config, calendar_id: chosen.id })))) throw notFound('Calendar integration not found');
      await repo.saveCalendarName(id, chosen.name, deps.clock.now());
      return { calendarId: chosen.id, calendarName: chosen.name };
    },

    /**
     * Forgets the connected account's refresh token. Google's is revoked first (if Google cannot be
     * reached it is still forgotten here, and the answer says so); Microsoft has no per-application
     * revoke, so the answer says where the user removes the app's access. An active integration is
     * deactivated: without the token it could not sync.
     */
    async disconnect(id: string) {
      const { row, provider, config } = await connectable(id);
      const refreshToken = configText(parseConfigObject(config), 'refresh_token');
      if (!refreshToken) throw conflict(`It is not connected to a ${providerNames[provider]} account.`);
      // Its push channel is stopped first: only its token can stop it.
      await calendarInbound(deps).forget(id);
      let revoked: boolean | null = null;
      if (provider === 'google') {
        try {
          const res = await outbound(deps, deps.integrations.googleRevokeUrl, {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            body: new URLSearchParams({ token: refreshToken }).toString(),
          });
          // 400 invalid_token: already revoked or expired, which is what Disconnect wants.
          revoked = res.ok || (res.status === 400 && /invalid_token/.test(res.text()));
        } catch (err) {
          deps.log.warn('calendar disconnect: revoke failed', { integrationId: id, err: (err as Error).message });
          revoked = false;
        }
      }
      await changeConnectedConfig(deps, id, (current) => {
        const { refresh_token: _forgotten, ...rest } = current;
        return rest;
      });
      await repo.removeConnection(id);
      const deactivated = row.isActive ? (await settings.deactivate(id)) !== null : false;
      return { provider, revoked, deactivated, accessPage: accessPages[provider] };
    },

    /** Each Google or Outlook integration's connection, for the Calendar tab's cards. */
    connections: repo.listConnections,
    connection: repo.connection,
  };

  /** Microsoft's profile (/me) e-mail, when the id_token named none. */
  async function graphProfileEmail(accessToken: string): Promise<string | null> {
    try {
      const res = await outbound(deps, `${deps.integrations.microsoftGraphApiBase.replace(/\/+$/, '')}/me`, {
        method: 'GET',
        headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' },
      });
      if (!res.ok) return null;
      const me = res.json<{ mail?: unknown; userPrincipalName?: unknown }>();
      return text(me.mail) ?? text(me.userPrincipalName);
    } catch {
      return null;
    }
  }
}
