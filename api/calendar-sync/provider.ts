/**
 * What Google Calendar and Outlook share (issue 7 item 3): reading the admin's config JSON, OAuth
 * access tokens cached until shortly before they expire, the events collection's requests and how
 * their answers read, and telling a failure retrying can fix from one it cannot. Every request goes
 * through safeFetch (docs: api/integrations/safe-fetch.ts).
 */
import { createHash } from 'node:crypto';
import { PermanentDeliveryError } from '../deliveries/deliveries.ts';
import type { Deps } from '../deps.ts';
import { OutboundError, safeFetch, type SafeFetchOptions, type SafeResponse } from '../integrations/safe-fetch.ts';
import type { AppointmentSnapshot } from './calendar-event.ts';
import type { CalendarSetting } from './calendar-sync.repository.ts';

/** One provider's calendar, for one integration's credentials. */
export interface CalendarApi {
  /** 'Google Calendar', 'Outlook': for messages in the delivery log. */
  readonly label: string;
  /** Creates the event and returns its id. `idempotencyKey` (the delivery id) makes a retried insert create it once. */
  create(appointment: AppointmentSnapshot, idempotencyKey: string): Promise<string>;
  /** false when the event no longer exists at the provider. */
  update(eventId: string, appointment: AppointmentSnapshot): Promise<boolean>;
  /** Resolves also when the event was already gone. */
  remove(eventId: string): Promise<void>;
}

/** The integration's config as an object, or a permanent failure telling the admin what to fix. */
export function readConfig(setting: CalendarSetting, label: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(setting.config);
  } catch {
    throw new PermanentDeliveryError(
      `The ${label} integration's configuration is not valid JSON; add a new integration with a JSON object as its configuration.`,
    );
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new PermanentDeliveryError(`The ${label} integration's configuration must be a JSON object.`);
  }
  return parsed as Record<string, unknown>;
}

/** A required text value of the config; missing or blank is a permanent failure naming the key and what it holds. */
export function requireKey(config: Record<string, unknown>, key: string, label: string, what: string): string {
  const value = config[key];
  if (typeof value === 'string' && value.trim()) return value.trim();
  throw new PermanentDeliveryError(
    `The ${label} configuration has no "${key}": add "${key}": "<${what}>" to its JSON (create a new integration with it and activate that one).`,
  );
}

export function optionalKey(config: Record<string, unknown>, key: string): string | null {
  const value = config[key];
  return typeof value === 'string' && value.trim() ? value.trim() : null;
}

/** Access tokens by credentials, held until a minute before they expire (the firm's clock decides). */
export interface TokenCache {
  get(key: string): string | null;
  set(key: string, token: string, expiresInSeconds: number): void;
  drop(key: string): void;
}

const EXPIRY_MARGIN_MS = 60_000;

export function createTokenCache(clock: Deps['clock']): TokenCache {
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

/** A cache key that changes with the credentials, without keeping them in the key. */
export const credentialsKey = (...parts: string[]) => createHash('sha256').update(parts.join('\u0000')).digest('hex');

/**
 * safeFetch with the operator's network rule, where an address that is refused or malformed is a
 * permanent failure (retrying reaches the same address) and anything else of OutboundError
 * (timeout, network) is retried.
 */
export async function outbound(deps: Deps, url: string, options: Omit<SafeFetchOptions, 'allowPrivateNetworks'>): Promise<SafeResponse> {
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
export function readTokenAnswer(res: SafeResponse, label: string): { token: string; expiresIn: number } {
  if (res.status === 400 || res.status === 401) {
    throw new PermanentDeliveryError(
      `${label} refused the configured credentials: ${providerMessage(res)}. Check the client id, client secret and token in the integration's configuration.`,
    );
  }
  if (!res.ok) throw new Error(`${label} token request failed: ${providerMessage(res)}`);
  let body: { access_token?: unknown; expires_in?: unknown };
  try {
    body = res.json();
  } catch {
    throw new Error(`${label} token answer was not JSON`);
  }
  if (typeof body.access_token !== 'string' || !body.access_token) throw new Error(`${label} token answer had no access_token`);
  return { token: body.access_token, expiresIn: Number(body.expires_in) };
}

/**
 * Runs an authorized request with a cached token; on a 401 the token is dropped, a new one fetched,
 * and the request tried once more (a token revoked or expired early).
 */
export async function withToken(
  cache: TokenCache,
  key: string,
  fetchToken: () => Promise<{ token: string; expiresIn: number }>,
  request: (token: string) => Promise<SafeResponse>,
): Promise<SafeResponse> {
  const fresh = async () => {
    const { token, expiresIn } = await fetchToken();
    cache.set(key, token, expiresIn);
    return token;
  };
  let token = cache.get(key);
  const cached = token !== null;
  token ??= await fresh();
  let res = await request(token);
  if (res.status === 401 && cached) {
    cache.drop(key);
    res = await request(await fresh());
  }
  return res;
}

/** A JSON request with the bearer token (`body` undefined: none). */
export type OAuthCall = (method: string, url: string, body?: unknown) => Promise<SafeResponse>;

/**
 * An OAuth client's JSON API (Google Calendar, Microsoft Graph): tokens from a form-encoded grant at
 * `tokenUrl`, cached by `key`, and a `call(method, url, body?)` that sends JSON with the bearer token.
 */
export function oauthJsonApi(deps: Deps, tokens: TokenCache, grant: { tokenUrl: string; form: Record<string, string>; label: string; key: string }): OAuthCall {
  const fetchToken = async () => {
    const res = await outbound(deps, grant.tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams(grant.form).toString(),
    });
    return readTokenAnswer(res, grant.label);
  };
  return (method: string, url: string, body?: unknown) =>
    withToken(tokens, grant.key, fetchToken, (token) =>
      outbound(deps, url, {
        method,
        headers: { authorization: `Bearer ${token}`, accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    );
}

/**
 * A JSON events collection (Google Calendar v3, Microsoft Graph): POST `eventsUrl` to create, PATCH
 * and DELETE `eventsUrl/{id}`, whose answers both providers give the same meaning. What differs is
 * passed in: the provider's event resource, the create's guard against a retried POST creating a
 * second event, the name of its create call, and what a 404 on create says is missing.
 */
export function jsonEventsApi(
  call: OAuthCall,
  provider: {
    label: string;
    eventsUrl: string;
    resource: (appointment: AppointmentSnapshot) => Record<string, unknown>;
    /**
     * The create's body for this delivery id; `ownId` when the client chose the event's id, so a 409
     * means an earlier attempt created it and its answer was lost.
     */
    createBody: (appointment: AppointmentSnapshot, idempotencyKey: string) => { body: Record<string, unknown>; ownId?: string | null };
    /** 'insert' (Google's name for it) or 'create' (Graph's), in messages. */
    createVerb: string;
    /** What a 404 on create means is missing, and the config key that names it. */
    missing: { what: string; configKey: string };
  },
): CalendarApi {
  const { label, eventsUrl, createVerb } = provider;
  const eventUrl = (eventId: string) => `${eventsUrl}/${encodeURIComponent(eventId)}`;
  return {
    label,
    async create(a, idempotencyKey) {
      const { body, ownId } = provider.createBody(a, idempotencyKey);
      const res = await call('POST', eventsUrl, body);
      if (res.status === 409 && ownId) return ownId;
      if (res.status === 400) throw new PermanentDeliveryError(`${label} refused the event: ${providerMessage(res)}`);
      if (res.status === 404)
        throw new PermanentDeliveryError(`${label} has no ${provider.missing.what}: ${providerMessage(res)}. Check ${provider.missing.configKey}.`);
      if (!res.ok) throw new Error(`${label} ${createVerb} failed: ${providerMessage(res)}`);
      const created = res.json<{ id?: unknown }>();
      if (typeof created.id !== 'string' || !created.id) throw new Error(`${label} answered the ${createVerb} without an event id`);
      return created.id;
    },
    async update(eventId, a) {
      const res = await call('PATCH', eventUrl(eventId), provider.resource(a));
      if (res.status === 404 || res.status === 410) return false;
      if (res.status === 400) throw new PermanentDeliveryError(`${label} refused the change: ${providerMessage(res)}`);
      if (!res.ok) throw new Error(`${label} update failed: ${providerMessage(res)}`);
      return true;
    },
    async remove(eventId) {
      const res = await call('DELETE', eventUrl(eventId));
      // 404: never there or purged; 410: already deleted. Either way the event is gone.
      if (res.ok || res.status === 404 || res.status === 410) return;
      throw new Error(`${label} delete failed: ${providerMessage(res)}`);
    },
  };
}
