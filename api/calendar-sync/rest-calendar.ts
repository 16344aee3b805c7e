/**
 * The one REST calendar adapter behind Google Calendar and Outlook: the admin's
 * config JSON read, an OAuth access token from the provider's grant cached until shortly before it
 * expires, each request sent with it and tried once more with a new token on a 401, and one event per
 * appointment created (POST), changed (PATCH) and removed (DELETE) in a JSON events collection, whose
 * answers both providers give the same meaning; a failure retrying can fix is told from one it cannot.
 * Each provider (google.ts, outlook.ts) gives only what differs: its config keys, token grant and
 * URLs, and its event resource. Every request goes through safeFetch (api/http/outbound-fetch.ts).
 */
import { createHash } from 'node:crypto';
import type { Clock } from '../clock.ts';
import { PermanentDeliveryError } from '../deliveries/deliveries.ts';
import type { Deps, IntegrationSettings } from '../deps.ts';
import { grantEvents, type GrantEvents } from '../calendar-connect/grant-events.ts';
import { OutboundError, safeFetch, type SafeFetchOptions, type SafeResponse } from '../http/outbound-fetch.ts';
import type { AppointmentSnapshot } from './calendar-event.ts';
import type { CalendarSetting } from './calendar-sync.repository.ts';

/** One provider's calendar, for one integration's credentials. */
export interface CalendarApi {
  /** 'Google Calendar', 'Outlook': for messages in the delivery log. */
  readonly label: string;
  /** Creates the event and returns its id. `idempotencyKey` (the delivery id) makes a retried insert create it once. */
  create(appointment: AppointmentSnapshot, idempotencyKey: string): Promise<string>;
  /** false when the event no longer exists at the provider. */
  update(eventId: string, appointment: AppointmentSnapshot, calendarId?: string | null): Promise<boolean>;
  /** Resolves also when the event was already gone. */
  remove(eventId: string, calendarId?: string | null): Promise<void>;
  /**
   * Any other request of the provider's API with this integration's token (busy times, calendar
   * lists, changes): `url` absolute, under `root` or the provider's API base.
   */
  call: OAuthCall;
  /**
   * The root of this integration's calendar API: Google's API base (`/calendars/{calendar_id}` and
   * `/freeBusy` below it), Graph's user (`/me` when signed in through Connect, `/users/{user_email}` app-only).
   */
  root: string;
  /** The calendar this integration writes to: Google's calendar_id ('primary' by default), Graph's calendar id or null (the default calendar). */
  calendarId: string | null;
}

/**
 * What a REST calendar provider gives the adapter; everything else (tokens, retries, the events
 * collection's requests and their answers) is the same for all of them.
 */
export interface RestCalendarProvider {
  /** 'Google Calendar', 'Outlook': in messages of the delivery log. */
  label: string;
  /**
   * The integration's config read into the token grant and the events collection. `config` throws a
   * permanent failure naming a required key that is missing.
   */
  connect(
    config: ConfigReader,
    integrations: IntegrationSettings,
  ): {
    /** An OAuth grant at `tokenUrl` (form-encoded); `label` names the token service in messages; `cacheKey`: the credentials it is cached by. */
    grant: { tokenUrl: string; form: Record<string, string>; label: string; cacheKey: string[] };
    /** POST creates an event here. */
    eventsUrl: string;
    /**
     * Where PATCH and DELETE go for an event made in `calendarOfEvent` (null: not recorded, this
     * integration's calendar): another calendar may have been picked since the event was made.
     */
    eventUrl(eventId: string, calendarOfEvent: string | null): string;
    /** What a 404 on create means is missing, and the config key that names it. */
    missing: { what: string; configKey: string };
    /** CalendarApi.root and CalendarApi.calendarId. */
    root: string;
    calendarId: string | null;
  };
  /** The provider's event resource for the appointment (PATCH body). */
  resource(appointment: AppointmentSnapshot): Record<string, unknown>;
  /**
   * The create's body for this delivery id, with the provider's guard against a retried POST making a
   * second event; `ownId` when the client chose the event's id, so a 409 means an earlier attempt
   * created it and its answer was lost.
   */
  createBody(appointment: AppointmentSnapshot, idempotencyKey: string): { body: Record<string, unknown>; ownId?: string | null };
  /** 'insert' (Google's name for it) or 'create' (Graph's), in messages. */
  createVerb: string;
}

/** The admin's config JSON, read key by key. */
export interface ConfigReader {
  /** A required text value; missing or blank is a permanent failure naming the key and what it holds. */
  required(key: string, what: string): string;
  optional(key: string): string | null;
}

/** The integration's config as an object, or a permanent failure telling the admin what to fix. */
function readConfig(setting: CalendarSetting, label: string): ConfigReader {
  return readConfigText(setting.config, label);
}

/** The config JSON text read key by key, or a permanent failure telling the admin what to fix. */
export function readConfigText(text: string, label: string): ConfigReader {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new PermanentDeliveryError(
      `The ${label} integration's configuration is not valid JSON; give it a JSON object as its configuration (Edit Settings on the Integrations page).`,
    );
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new PermanentDeliveryError(`The ${label} integration's configuration must be a JSON object.`);
  }
  const config = parsed as Record<string, unknown>;
  const optional = (key: string) => {
    const value = config[key];
    return typeof value === 'string' && value.trim() ? value.trim() : null;
  };
  return {
    optional,
    required(key, what) {
      const value = optional(key);
      if (value !== null) return value;
      throw new PermanentDeliveryError(
        `The ${label} configuration has no "${key}": add "${key}": "<${what}>" to its JSON (Edit Settings on the Integrations page).`,
      );
    },
  };
}

/** Access tokens by credentials, held until a minute before they expire (the firm's clock decides). */
export interface TokenCache {
  get(key: string): string | null;
  set(key: string, token: string, expiresInSeconds: number): void;
  drop(key: string): void;
}

const EXPIRY_MARGIN_MS = 60_000;

export function createTokenCache(clock: Clock): TokenCache {
  const tokens = new Map<string, { token: string; expiresAt: number }>();
  return {
    get(key) {
      const entry = tokens.get(key);
      if (!entry) return null;
      if (clock.now().getTime() >= entry.expiresAt - EXPIRY_MARGIN_MS) {
        tokens.delete(key);
        return null;
      }
      return entry.token;
    },
    set(key, token, expiresInSeconds) {
      const seconds = Number.isFinite(expiresInSeconds) && expiresInSeconds > 0 ? expiresInSeconds : 3600;
      tokens.set(key, { token, expiresAt: clock.now().getTime() + seconds * 1000 });
    },
    drop(key) {
      tokens.delete(key);
    },
  };
}

// One per app (per its content events): the deliveries, the busy-time reads (busy-times.ts), the
// change reader (calendar-inbound.ts) and the calendar picker (api/calendar-connect) share an
// integration's access token.
const appTokens = new WeakMap<object, TokenCache>();

/** This app's access tokens, shared by everything that calls a calendar provider. */
export function tokenCacheFor(deps: { events: object; clock: Clock }): TokenCache {
  let cache = appTokens.get(deps.events);
  if (!cache) {
    cache = createTokenCache(deps.clock);
    appTokens.set(deps.events, cache);
  }
  return cache;
}

/** A cache key that changes with the credentials, without keeping them in the key. */
const credentialsKey = (parts: string[]) => createHash('sha256').update(parts.join('\u0000')).digest('hex');

/** The operator's network rule for outbound requests. */
export type OutboundDeps = { integrations: Pick<IntegrationSettings, 'allowPrivateNetworks'> };

/**
 * safeFetch with the operator's network rule, where an address that is refused or malformed is a
 * permanent failure (retrying reaches the same address) and anything else of OutboundError
 * (timeout, network) is retried. (The custom webhook sends through it too.)
 */
export async function outbound(deps: OutboundDeps, url: string, options: Omit<SafeFetchOptions, 'allowPrivateNetworks'>): Promise<SafeResponse> {
  try {
    return await safeFetch(url, { timeoutMs: 15_000, maxBytes: 1024 * 1024, ...options, allowPrivateNetworks: deps.integrations.allowPrivateNetworks });
  } catch (err) {
    if (err instanceof OutboundError && (err.failure === 'bad-url' || err.failure === 'refused-address')) throw new PermanentDeliveryError(err.message);
    throw err;
  }
}

/** The provider's own explanation of an error answer (Google and Graph both use { error: { message } }), short. */
export function providerMessage(res: SafeResponse): string {
  let detail = '';
  try {
    const body = res.json<{ error?: string | { message?: string; code?: string | number }; error_description?: string }>();
    if (typeof body.error === 'string') detail = body.error_description ? `${body.error}: ${body.error_description}` : body.error;
    else if (body.error) detail = body.error.message ?? String(body.error.code ?? '');
  } catch {
    /* not JSON: the status says enough */
  }
  detail = detail.replace(/\s+/g, ' ').trim().slice(0, 200);
  return `HTTP ${res.status}${detail ? ` (${detail})` : ''}`;
}

/**
 * An OAuth token endpoint's answer. A 400/401 means the credentials were refused (invalid_grant,
 * invalid_client): retrying cannot fix that, the admin must. Anything else unexpected is retried.
 */
function readTokenAnswer(res: SafeResponse, label: string): { token: string; expiresIn: number; refreshToken: string | null } {
  if (res.status === 400 || res.status === 401) {
    throw new PermanentDeliveryError(
      `${label} refused the configured credentials: ${providerMessage(res)}. Check the client id, client secret and token in the integration's configuration.`,
    );
  }
  if (!res.ok) throw new Error(`${label} token request failed: ${providerMessage(res)}`);
  let body: { access_token?: unknown; expires_in?: unknown; refresh_token?: unknown };
  try {
    body = res.json();
  } catch {
    throw new Error(`${label} token answer was not JSON`);
  }
  if (typeof body.access_token !== 'string' || !body.access_token) throw new Error(`${label} token answer had no access_token`);
  const refreshToken = typeof body.refresh_token === 'string' && body.refresh_token ? body.refresh_token : null;
  return { token: body.access_token, expiresIn: Number(body.expires_in), refreshToken };
}

/** The OAuth error code of a token endpoint's refusal (invalid_grant, invalid_client), and its description. */
function oauthError(res: SafeResponse): { error: string | null; description: string } {
  try {
    const body = res.json<{ error?: unknown; error_description?: unknown }>();
    return {
      error: typeof body.error === 'string' ? body.error : null,
      description: typeof body.error_description === 'string' ? body.error_description : '',
    };
  } catch {
    return { error: null, description: '' };
  }
}

/** A JSON request with the bearer token (`body` undefined: none; `headers`: more, such as Graph's Prefer). */
export type OAuthCall = (method: string, url: string, body?: unknown, headers?: Record<string, string>) => Promise<SafeResponse>;

/** How long a request (the token's included) may take: deliveries retry, so they wait long; a visitor's page does not. */
export interface RestCalendarOptions {
  timeoutMs?: number;
}

/**
 * JSON requests with a cached token from the grant; on a 401 the token is dropped, a new one
 * fetched, and the request tried once more (a token revoked or expired early).
 */
function oauthJsonApi(
  deps: OutboundDeps,
  cache: TokenCache,
  grant: { tokenUrl: string; form: Record<string, string>; label: string; key: string },
  connection: { integrationId: string; events: GrantEvents },
  { timeoutMs }: RestCalendarOptions = {},
): OAuthCall {
  const limit = timeoutMs ? { timeoutMs } : {};
  const fresh = async () => {
    const res = await outbound(deps, grant.tokenUrl, {
      ...limit,
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams(grant.form).toString(),
    });
    const refreshToken = grant.form.grant_type === 'refresh_token' ? grant.form.refresh_token : undefined;
    // A connected account's grant revoked or expired: the Calendar card says it needs reconnecting
    // (the delivery still fails permanently below, with the provider's words).
    if (refreshToken && res.status === 400) {
      const refusal = oauthError(res);
      if (refusal.error === 'invalid_grant') await connection.events.refused(connection.integrationId, refreshToken, refusal.description || refusal.error);
    }
    const answer = readTokenAnswer(res, grant.label);
    cache.set(grant.key, answer.token, answer.expiresIn);
    // Microsoft may send a new refresh token with each refresh: the stored one is replaced (sealed).
    if (refreshToken && answer.refreshToken && answer.refreshToken !== refreshToken)
      await connection.events.rotated(connection.integrationId, refreshToken, answer.refreshToken);
    return answer.token;
  };
  const request = (token: string, method: string, url: string, body?: unknown, headers: Record<string, string> = {}) =>
    outbound(deps, url, {
      ...limit,
      method,
      headers: {
        ...headers,
        authorization: `Bearer ${token}`,
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  return async (method, url, body, headers) => {
    const cached = cache.get(grant.key);
    const res = await request(cached ?? (await fresh()), method, url, body, headers);
    if (res.status !== 401 || cached === null) return res;
    cache.drop(grant.key);
    return request(await fresh(), method, url, body, headers);
  };
}

/**
 * A REST calendar provider's events, for one integration's credentials. The database, secrets and
 * clock record what token refreshes say about a connected account (api/calendar-connect/grant-events.ts).
 */
export function restCalendar(
  deps: Pick<Deps, 'integrations' | 'database' | 'secrets' | 'clock'>,
  tokens: TokenCache,
  provider: RestCalendarProvider,
  options: RestCalendarOptions = {},
) {
  const { label, createVerb } = provider;
  const events = grantEvents(deps);
  return {
    forSetting(setting: CalendarSetting): CalendarApi {
      const { grant, eventsUrl, eventUrl, missing, root, calendarId } = provider.connect(readConfig(setting, label), deps.integrations);
      const call = oauthJsonApi(deps, tokens, { ...grant, key: credentialsKey(grant.cacheKey) }, { integrationId: setting.id, events }, options);
      return {
        label,
        call,
        root,
        calendarId,
        async create(a, idempotencyKey) {
          const { body, ownId } = provider.createBody(a, idempotencyKey);
          const res = await call('POST', eventsUrl, body);
          if (res.status === 409 && ownId) return ownId;
          if (res.status === 400) throw new PermanentDeliveryError(`${label} refused the event: ${providerMessage(res)}`);
          if (res.status === 404) throw new PermanentDeliveryError(`${label} has no ${missing.what}: ${providerMessage(res)}. Check ${missing.configKey}.`);
          if (!res.ok) throw new Error(`${label} ${createVerb} failed: ${providerMessage(res)}`);
          const created = res.json<{ id?: unknown }>();
          if (typeof created.id !== 'string' || !created.id) throw new Error(`${label} answered the ${createVerb} without an event id`);
          return created.id;
        },
        async update(eventId, a, inCalendar) {
          const res = await call('PATCH', eventUrl(eventId, inCalendar ?? null), provider.resource(a));
          if (res.status === 404 || res.status === 410) return false;
          if (res.status === 400) throw new PermanentDeliveryError(`${label} refused the change: ${providerMessage(res)}`);
          if (!res.ok) throw new Error(`${label} update failed: ${providerMessage(res)}`);
          return true;
        },
        async remove(eventId, inCalendar) {
          const res = await call('DELETE', eventUrl(eventId, inCalendar ?? null));
          // 404: never there or purged; 410: already deleted. Either way the event is gone.
          if (res.ok || res.status === 404 || res.status === 410) return;
          throw new Error(`${label} delete failed: ${providerMessage(res)}`);
        },
      };
    },
  };
}
