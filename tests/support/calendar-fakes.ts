/**
 * Local stand-ins for the calendar providers, real HTTP servers on loopback that record
 * every request and can be told to fail: a Google fake (OAuth token endpoint + Calendar API v3), a
 * Microsoft fake (identity platform token endpoint + Graph events) and a plain webhook receiver.
 * Integration tests start them on port 0; e2e specs start them on E2E_FAKES_PORT with the path
 * prefixes playwright.config.ts gives the server (/google/calendar/v3, /google/token,
 * /google/oauth/authorize, /google/revoke, /graph/v1.0, /microsoft-login), several services on one
 * port. Connect (issue 20): consent pages, authorization codes with PKCE, refresh tokens and revocation. No vitest import and nothing from api/: the
 * fakes check what they receive on their own (a signature is verified here, not by the code under test).
 */
import { createHash, createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  /** Path without the query, as received (prefix included). */
  path: string;
  query: Record<string, string>;
  /** Lower-case names. */
  headers: Record<string, string>;
  body: string;
  /** The body as JSON (throws when it is not). */
  json<T = any>(): T;
  /** The body as application/x-www-form-urlencoded. */
  form(): Record<string, string>;
}

/** One fake mounted on a server: answers the requests under its paths, returns false for the others. */
export interface FakeService {
  handle(req: RecordedRequest, res: http.ServerResponse): boolean | Promise<boolean>;
}

export interface FailureRule {
  /** Answer status (default 503). */
  status?: number;
  /** JSON body of the failure answer. */
  body?: unknown;
  /** Only requests this matches count (default: every request the service handles). */
  match?: (req: RecordedRequest) => boolean;
  /** Answer only after this long (a provider too slow to wait for). */
  delayMs?: number;
}

/** Request log and injected failures, shared by every fake. */
class Recorder {
  readonly requests: RecordedRequest[] = [];
  private failures: { remaining: number; rule: FailureRule }[] = [];

  /** The next `count` matching requests get `rule.status` (503 by default) before anything else happens. */
  failNext(count: number, rule: FailureRule = {}) {
    this.failures.push({ remaining: count, rule });
  }

  /** Forgets recorded requests and pending failures. */
  resetRequests() {
    this.requests.length = 0;
    this.failures = [];
  }

  /** Records the request; true when it was answered with an injected failure. */
  protected intercept(req: RecordedRequest, res: http.ServerResponse): boolean {
    this.requests.push(req);
    const failure = this.failures.find((f) => f.remaining > 0 && (!f.rule.match || f.rule.match(req)));
    if (!failure) return false;
    failure.remaining--;
    const answer = () => {
      if (!res.destroyed)
        send(res, failure.rule.status ?? 503, failure.rule.body ?? { error: { code: failure.rule.status ?? 503, message: 'Injected failure' } });
    };
    if (failure.rule.delayMs) setTimeout(answer, failure.rule.delayMs).unref();
    else answer();
    return true;
  }
}

function send(res: http.ServerResponse, status: number, body?: unknown) {
  if (body === undefined) {
    res.writeHead(status).end();
    return;
  }
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) }).end(text);
}

const bearer = (req: RecordedRequest) => /^Bearer (.+)$/i.exec(req.headers.authorization ?? '')?.[1] ?? null;
const trimSlash = (prefix: string) => prefix.replace(/\/+$/, '');

// ------------------------------------------------------------------------------- Times (busy reads)

/** How far `zone`'s wall clock is ahead of UTC at `at`, in ms. */
function zoneOffsetMs(zone: string, at: number): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(at));
  const get = (type: string) => Number(parts.find((p) => p.type === type)!.value);
  return Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second')) - at;
}

/** The instant of a wall-clock time ('2030-07-01T09:00:00', or a date '2030-07-01' for midnight) in an IANA zone. */
function wallToInstant(wall: string, zone: string): number {
  const guess = Date.parse(`${wall.length === 10 ? `${wall}T00:00:00` : wall.replace(/\.\d+$/, '')}Z`);
  const first = guess - zoneOffsetMs(zone, guess);
  return guess - zoneOffsetMs(zone, first);
}

/** Windows zone names Graph uses (and 'UTC'), as IANA zones. */
const windowsZones: Record<string, string> = { 'Pacific Standard Time': 'America/Los_Angeles', UTC: 'UTC', 'Eastern Standard Time': 'America/New_York' };

const hasOffset = (text: string) => /(Z|[+-]\d\d:\d\d)$/i.test(text);

/** Overlapping intervals joined, sorted (Google's freeBusy answers them so). */
function mergeIntervals(intervals: { start: number; end: number }[]) {
  const sorted = [...intervals].sort((a, b) => a.start - b.start);
  const merged: { start: number; end: number }[] = [];
  for (const i of sorted) {
    const last = merged.at(-1);
    if (last && i.start <= last.end) last.end = Math.max(last.end, i.end);
    else merged.push({ ...i });
  }
  return merged;
}

// ------------------------------------------------------------------- OAuth consent (issue 20, Connect)

/** An OAuth client registered with a fake provider (Google Cloud's Web client, an Entra app registration). */
export interface OAuthClient {
  clientId: string;
  clientSecret: string;
  /** The exact redirect URIs registered; any other is refused before the consent page. */
  redirectUris: string[];
}

interface IssuedCode {
  clientId: string;
  redirectUri: string;
  codeChallenge: string;
  codeChallengeMethod: string;
  scope: string;
  used: boolean;
}

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function sendHtml(res: http.ServerResponse, status: number, html: string) {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'content-length': Buffer.byteLength(html) }).end(html);
}

/** An unsigned JWT-shaped id_token (alg none): the code under test reads its claims, it does not verify them. */
const unsignedJwt = (claims: Record<string, unknown>) =>
  `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.`;

/**
 * The authorization-code part of a fake provider, as Google and the Microsoft identity platform
 * document it: a consent page (the account, the app's requested access, Allow and Cancel) for a
 * registered client and redirect URI only; codes good once, bound to the PKCE S256 challenge and the
 * redirect URI; refresh tokens that can be revoked.
 */
class OAuthConsent {
  readonly clients: OAuthClient[] = [];
  private codes = new Map<string, IssuedCode>();
  /** Refresh tokens issued through consent, with their client; revoked ones answer invalid_grant. */
  readonly refreshTokens = new Map<string, { clientId: string; revoked: boolean }>();

  private readonly providerName: string;
  readonly account: { email: string; name: string };

  constructor(providerName: string, account: { email: string; name: string }) {
    this.providerName = providerName;
    this.account = account;
  }

  client(clientId: string | undefined) {
    return this.clients.find((c) => c.clientId === clientId) ?? null;
  }

  /** GET: the consent page, or the provider's own error page for an unknown client or unregistered redirect URI. */
  page(req: RecordedRequest, res: http.ServerResponse, formAction: string) {
    const q = req.query;
    const client = this.client(q.client_id);
    if (!client)
      return sendHtml(
        res,
        401,
        `<!doctype html><title>Error 401: invalid_client</title><h1>Error 401: invalid_client</h1><p>The OAuth client was not found.</p>`,
      );
    if (!q.redirect_uri || !client.redirectUris.includes(q.redirect_uri)) {
      return sendHtml(
        res,
        400,
        `<!doctype html><title>Error 400: redirect_uri_mismatch</title><h1>Access blocked: this app’s request is invalid</h1><p>Error 400: redirect_uri_mismatch</p><p>You can’t sign in because this app sent an invalid request. The redirect URI in the request, ${escapeHtml(q.redirect_uri ?? '')}, does not match the ones authorized for the OAuth client.</p>`,
      );
    }
    const hidden = Object.entries(q)
      .map(([k, v]) => `<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(v)}">`)
      .join('');
    const access = (q.scope ?? '')
      .split(/\s+/)
      .filter(Boolean)
      .map((scope) => `<li>${escapeHtml(scope)}</li>`)
      .join('');
    sendHtml(
      res,
      200,
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>Sign in - ${escapeHtml(this.providerName)}</title></head><body><main>` +
        `<h1>${escapeHtml(this.providerName)}: allow access?</h1><p>Signed in as <strong data-testid="account">${escapeHtml(this.account.email)}</strong></p>` +
        `<p>The app wants to:</p><ul>${access}</ul>` +
        `<form method="post" action="${escapeHtml(formAction)}">${hidden}<button name="decision" value="cancel">Cancel</button> <button name="decision" value="allow">Allow</button></form>` +
        `</main></body></html>`,
    );
  }

  /** POST from the consent page: a code (Allow) or error=access_denied (Cancel), redirected to the client. */
  decide(req: RecordedRequest, res: http.ServerResponse) {
    const f = req.form();
    const client = this.client(f.client_id);
    if (!client || !f.redirect_uri || !client.redirectUris.includes(f.redirect_uri)) return sendHtml(res, 400, '<h1>Error 400: redirect_uri_mismatch</h1>');
    const to = new URL(f.redirect_uri);
    if (f.state) to.searchParams.set('state', f.state);
    if (f.decision !== 'allow') {
      to.searchParams.set('error', 'access_denied');
      to.searchParams.set('error_description', 'The user denied access');
    } else {
      const code = `4/fake-code-${randomBytes(16).toString('base64url')}`;
      this.codes.set(code, {
        clientId: client.clientId,
        redirectUri: f.redirect_uri,
        codeChallenge: f.code_challenge ?? '',
        codeChallengeMethod: f.code_challenge_method ?? 'plain',
        scope: f.scope ?? '',
        used: false,
      });
      to.searchParams.set('code', code);
      to.searchParams.set('scope', f.scope ?? '');
    }
    res.writeHead(302, { location: to.toString() }).end();
  }

  /** grant_type=authorization_code: the refusal (status, body), or the scope granted and a new refresh token. */
  redeem(form: Record<string, string>): { refusal: [number, unknown] } | { scope: string; refreshToken: string; clientId: string } {
    const client = this.client(form.client_id);
    if (!client || client.clientSecret !== form.client_secret) return { refusal: [401, { error: 'invalid_client', error_description: 'Unauthorized' }] };
    const issued = form.code ? this.codes.get(form.code) : undefined;
    if (!issued || issued.clientId !== client.clientId) return { refusal: [400, { error: 'invalid_grant', error_description: 'Malformed auth code.' }] };
    if (issued.used) return { refusal: [400, { error: 'invalid_grant', error_description: 'Bad Request' }] };
    issued.used = true;
    if (form.redirect_uri !== issued.redirectUri) return { refusal: [400, { error: 'redirect_uri_mismatch', error_description: 'Bad Request' }] };
    const challenge =
      issued.codeChallengeMethod === 'S256'
        ? createHash('sha256')
            .update(form.code_verifier ?? '')
            .digest('base64url')
        : (form.code_verifier ?? '');
    if (!form.code_verifier || challenge !== issued.codeChallenge)
      return { refusal: [400, { error: 'invalid_grant', error_description: 'code_verifier or verifier is not valid' }] };
    const refreshToken = `1//fake-refresh-${randomBytes(16).toString('base64url')}`;
    this.refreshTokens.set(refreshToken, { clientId: client.clientId, revoked: false });
    return { scope: issued.scope, refreshToken, clientId: client.clientId };
  }

  idToken(clientId: string, issuer: string) {
    return unsignedJwt({
      iss: issuer,
      aud: clientId,
      sub: `fake-${this.account.email}`,
      email: this.account.email,
      email_verified: true,
      name: this.account.name,
    });
  }
}

// ---------------------------------------------------------------------------------------------- Google

export interface GoogleEvent {
  id: string;
  calendarId: string;
  summary?: string;
  description?: string;
  status?: string;
  start?: { dateTime?: string; date?: string; timeZone?: string };
  end?: { dateTime?: string; date?: string; timeZone?: string };
  /** 'transparent': shown as free (freeBusy leaves it out). */
  transparency?: string;
  [key: string]: unknown;
}

export interface GoogleFakeOptions {
  /** Default '/google/calendar/v3'. */
  calendarPrefix?: string;
  /** Default '/google/token'. */
  tokenPath?: string;
  /** When set, only these credentials get a token (others: 400 invalid_grant). */
  credentials?: { clientId: string; clientSecret: string; refreshToken: string };
  /** expires_in of issued tokens, seconds (default 3599). */
  tokenLifetimeSeconds?: number;
  /** Connect (issue 20): the consent page (default '/google/oauth/authorize') and revocation (default '/google/revoke'). */
  authorizePath?: string;
  revokePath?: string;
  /** The signed-in Google account the consent page shows. */
  account?: { email: string; name: string };
}

/** A calendar of the signed-in account's calendar list (Calendar API v3 calendarList resource). */
export interface GoogleCalendarListEntry {
  id: string;
  summary: string;
  accessRole: 'owner' | 'writer' | 'reader' | 'freeBusyReader';
  primary?: boolean;
}

export class GoogleCalendarFake extends Recorder implements FakeService {
  readonly calendarPrefix: string;
  readonly tokenPath: string;
  credentials: GoogleFakeOptions['credentials'];
  tokenLifetimeSeconds: number;
  /** Every access token issued, in order. */
  readonly issuedTokens: string[] = [];
  private validTokens = new Set<string>();
  /** Live events by id. */
  readonly events = new Map<string, GoogleEvent>();
  /** Ids of deleted events (Google answers 410 Gone for them). */
  readonly deleted = new Set<string>();
  readonly authorizePath: string;
  readonly revokePath: string;
  /** Connect: registered OAuth clients, codes and refresh tokens. */
  readonly oauth: OAuthConsent;
  /** The signed-in account's calendar list. */
  calendarList: GoogleCalendarListEntry[];

  constructor(options: GoogleFakeOptions = {}) {
    super();
    this.authorizePath = options.authorizePath ?? '/google/oauth/authorize';
    this.revokePath = options.revokePath ?? '/google/revoke';
    const account = options.account ?? { email: 'dana.whitfield@example-firm.test', name: 'Dana Whitfield' };
    this.oauth = new OAuthConsent('Google', account);
    this.calendarList = [
      { id: account.email, summary: account.email, accessRole: 'owner', primary: true },
      { id: 'court-dates@group.calendar.google.com', summary: 'Court dates', accessRole: 'owner' },
      { id: 'en.usa#holiday@group.v.calendar.google.com', summary: 'Holidays in United States', accessRole: 'reader' },
    ];
    this.calendarPrefix = trimSlash(options.calendarPrefix ?? '/google/calendar/v3');
    this.tokenPath = options.tokenPath ?? '/google/token';
    this.credentials = options.credentials;
    this.tokenLifetimeSeconds = options.tokenLifetimeSeconds ?? 3599;
  }

  /** Every token issued so far stops working (answers 401), as when Google revokes or expires them early. */
  revokeTokens() {
    this.validTokens.clear();
  }

  /** Token refreshes received. */
  tokenRequests() {
    return this.requests.filter((r) => r.path === this.tokenPath);
  }

  /** Calendar API requests received (not the token ones). */
  apiRequests() {
    return this.requests.filter((r) => r.path.startsWith(`${this.calendarPrefix}/`));
  }

  /** Every refresh token issued through consent stops working (the user removed the app's access). */
  revokeGrants() {
    for (const grant of this.oauth.refreshTokens.values()) grant.revoked = true;
  }

  handle(req: RecordedRequest, res: http.ServerResponse): boolean {
    if (req.path === this.tokenPath) {
      if (!this.intercept(req, res)) this.token(req, res);
      return true;
    }
    if (req.path === this.authorizePath) {
      if (!this.intercept(req, res)) req.method === 'POST' ? this.oauth.decide(req, res) : this.oauth.page(req, res, this.authorizePath);
      return true;
    }
    if (req.path === this.revokePath) {
      if (!this.intercept(req, res)) this.revoke(req, res);
      return true;
    }
    if (!req.path.startsWith(`${this.calendarPrefix}/`)) return false;
    if (!this.intercept(req, res)) this.calendar(req, res);
    return true;
  }

  private token(req: RecordedRequest, res: http.ServerResponse) {
    if (req.method !== 'POST') return send(res, 405, { error: 'method_not_allowed' });
    const form = req.form();
    if (form.grant_type === 'authorization_code') return this.redeemCode(form, res);
    if (form.grant_type !== 'refresh_token') return send(res, 400, { error: 'unsupported_grant_type', error_description: 'Invalid grant_type' });
    const connected = this.oauth.refreshTokens.get(form.refresh_token ?? '');
    if (connected) {
      if (this.oauth.client(form.client_id)?.clientSecret !== form.client_secret || connected.clientId !== form.client_id)
        return send(res, 401, { error: 'invalid_client', error_description: 'Unauthorized' });
      if (connected.revoked) return send(res, 400, { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' });
      return this.issue(res);
    }
    if (!form.client_id || !form.client_secret || !form.refresh_token)
      return send(res, 400, { error: 'invalid_request', error_description: 'Missing parameter' });
    const c = this.credentials;
    if (c && (form.client_id !== c.clientId || form.client_secret !== c.clientSecret))
      return send(res, 401, { error: 'invalid_client', error_description: 'Unauthorized' });
    if (c && form.refresh_token !== c.refreshToken) return send(res, 400, { error: 'invalid_grant', error_description: 'Bad Request' });
    this.issue(res);
  }

  /** An access token (and, for a code, the refresh token and id_token). */
  private issue(res: http.ServerResponse, connect?: { scope: string; refreshToken: string; idToken: string }) {
    const token = `ya29.fake-${randomBytes(12).toString('hex')}`;
    this.issuedTokens.push(token);
    this.validTokens.add(token);
    send(res, 200, {
      access_token: token,
      expires_in: this.tokenLifetimeSeconds,
      scope: connect?.scope ?? 'https://www.googleapis.com/auth/calendar.events',
      token_type: 'Bearer',
      ...(connect ? { refresh_token: connect.refreshToken, id_token: connect.idToken, refresh_token_expires_in: 604799 } : {}),
    });
  }

  /** grant_type=authorization_code (Connect): single-use code, PKCE S256, the same redirect_uri. */
  private redeemCode(form: Record<string, string>, res: http.ServerResponse) {
    const redeemed = this.oauth.redeem(form);
    if ('refusal' in redeemed) return send(res, ...redeemed.refusal);
    this.issue(res, {
      scope: redeemed.scope,
      refreshToken: redeemed.refreshToken,
      idToken: this.oauth.idToken(redeemed.clientId, 'https://accounts.google.com'),
    });
  }

  /** POST /revoke token=…: Google's revocation endpoint (a refresh token revokes its whole grant). */
  private revoke(req: RecordedRequest, res: http.ServerResponse) {
    if (req.method !== 'POST') return send(res, 405, { error: 'method_not_allowed' });
    const grant = this.oauth.refreshTokens.get(req.form().token ?? '');
    if (!grant || grant.revoked) return send(res, 400, { error: 'invalid_token', error_description: 'Token expired or revoked' });
    grant.revoked = true;
    send(res, 200, {});
  }

  /** GET /users/me/calendarList?minAccessRole=…: the signed-in account's calendars. */
  private listCalendars(req: RecordedRequest, res: http.ServerResponse) {
    const order = ['freeBusyReader', 'reader', 'writer', 'owner'];
    const min = order.indexOf(req.query.minAccessRole ?? 'freeBusyReader');
    const items = this.calendarList
      .filter((c) => order.indexOf(c.accessRole) >= Math.max(0, min))
      .map((c) => ({ kind: 'calendar#calendarListEntry', ...c, timeZone: 'America/Los_Angeles' }));
    send(res, 200, { kind: 'calendar#calendarList', etag: '"fake"', items });
  }

  private calendar(req: RecordedRequest, res: http.ServerResponse) {
    const token = bearer(req);
    if (!token || !this.validTokens.has(token)) {
      return send(res, 401, { error: { code: 401, message: 'Request had invalid authentication credentials.', status: 'UNAUTHENTICATED' } });
    }
    if (req.path === `${this.calendarPrefix}/users/me/calendarList` && req.method === 'GET') return this.listCalendars(req, res);
    if (req.path.slice(this.calendarPrefix.length) === '/freeBusy') return this.freeBusy(req, res);
    if (this.changesApi(req, res)) return;
    const m = /^\/calendars\/([^/]+)\/events(?:\/([^/]+))?$/.exec(req.path.slice(this.calendarPrefix.length));
    if (!m) return send(res, 404, { error: { code: 404, message: 'Not Found' } });
    const calendarId = decodeURIComponent(m[1]!);
    const eventId = m[2] ? decodeURIComponent(m[2]) : null;
    if (!eventId && req.method === 'POST') {
      const body = req.json<Partial<GoogleEvent>>();
      if (!body.start?.dateTime || !body.end?.dateTime) return send(res, 400, { error: { code: 400, message: 'Missing time' } });
      const id = typeof body.id === 'string' ? body.id : randomUUID().replace(/-/g, '');
      if (this.events.has(id) || this.deleted.has(id)) return send(res, 409, { error: { code: 409, message: 'The requested identifier already exists.' } });
      const event: GoogleEvent = { status: 'confirmed', ...body, id, calendarId };
      this.events.set(id, event);
      this.changed(id);
      return send(res, 200, { kind: 'calendar#event', htmlLink: `https://calendar.google.test/event?eid=${id}`, ...event });
    }
    if (!eventId) return send(res, 405, { error: { code: 405, message: 'Method not allowed' } });
    const existing = this.events.get(eventId);
    if (!existing || existing.calendarId !== calendarId) {
      return send(res, this.deleted.has(eventId) ? 410 : 404, {
        error: { code: this.deleted.has(eventId) ? 410 : 404, message: this.deleted.has(eventId) ? 'Resource has been deleted' : 'Not Found' },
      });
    }
    if (req.method === 'PATCH') {
      const patched: GoogleEvent = { ...existing, ...req.json<Partial<GoogleEvent>>(), id: eventId, calendarId };
      this.events.set(eventId, patched);
      this.changed(eventId);
      return send(res, 200, { kind: 'calendar#event', ...patched });
    }
    if (req.method === 'DELETE') {
      this.removeEvent(eventId);
      return send(res, 204);
    }
    if (req.method === 'GET') return send(res, 200, { kind: 'calendar#event', ...existing });
    return send(res, 405, { error: { code: 405, message: 'Method not allowed' } });
  }

  // ---------------------------------------------------------------- Google: reading changes (issue 20, item 3)
  // events.list with showDeleted/singleEvents/timeMin and pageToken; syncToken for what changed
  // since (deleted events come back as { id, status: 'cancelled' }), 410 Gone for a token the
  // fake was told to forget; events.watch channels that POST notifications (X-Goog-* headers) to
  // their address on every change, and channels.stop. https://developers.google.com/calendar/api/guides/sync
  // and /guides/push.

  /** Events per page of events.list (Google's maxResults; 250 is its default). */
  pageSize = 250;
  /** The fake's clock for channel expirations (a test on a fixed clock gives its own). */
  now: () => number = () => Date.now();
  /** The change counter: each write stamps its event with the next value (what a sync token stands for). */
  private sequence = 0;
  private readonly stamps = new Map<string, number>();
  /** Bumped by expireSyncTokens(): tokens of an older epoch answer 410. */
  private epoch = 1;
  /** Deleted events as incremental syncs list them. */
  private readonly tombstones = new Map<string, { id: string; calendarId: string; status: 'cancelled' }>();
  /** Live watch channels by id. */
  readonly channels = new Map<string, { id: string; resourceId: string; calendarId: string; address: string; token?: string; expiration: number }>();
  /** Channels stopped through channels.stop, in order. */
  readonly stoppedChannels: string[] = [];
  /** Every notification POSTed, with the status it was answered (null: could not connect). */
  readonly notifications: { channelId: string; state: string; status: number | null }[] = [];
  private readonly sending = new Set<Promise<unknown>>();

  /** Every sync token given so far answers 410 Gone (Google's "full sync required"). */
  expireSyncTokens() {
    this.epoch++;
  }

  /** As the attorney dragging the event in Google Calendar's own screen: new start and end. */
  moveEvent(id: string, start: Date | string, end: Date | string) {
    const event = this.events.get(id);
    if (!event) throw new Error(`no live Google event ${id}`);
    const at = (d: Date | string) => ({ dateTime: new Date(d).toISOString(), timeZone: event.start?.timeZone ?? 'UTC' });
    this.events.set(id, { ...event, start: at(start), end: at(end) });
    this.changed(id);
  }

  /** As the attorney deleting the event in Google Calendar's own screen. */
  deleteEventAsOwner(id: string) {
    if (!this.events.has(id)) throw new Error(`no live Google event ${id}`);
    this.removeEvent(id);
  }

  /** Resolves once every notification sent so far was answered. */
  async notificationsSettled() {
    while (this.sending.size) await Promise.allSettled([...this.sending]);
  }

  private removeEvent(id: string) {
    const event = this.events.get(id)!;
    this.events.delete(id);
    this.deleted.add(id);
    this.tombstones.set(id, { id, calendarId: event.calendarId, status: 'cancelled' });
    this.changed(id);
  }

  private changed(id: string) {
    this.stamps.set(id, ++this.sequence);
    const calendarId = this.events.get(id)?.calendarId ?? this.tombstones.get(id)?.calendarId;
    for (const channel of this.channels.values()) if (channel.calendarId === calendarId) this.notify(channel, 'exists');
  }

  private notify(channel: { id: string; resourceId: string; calendarId: string; address: string; token?: string; expiration: number }, state: string) {
    const number = this.notifications.length + 1;
    const record = { channelId: channel.id, state, status: null as number | null };
    this.notifications.push(record);
    const headers: Record<string, string> = {
      'x-goog-channel-id': channel.id,
      'x-goog-channel-expiration': new Date(channel.expiration).toUTCString(),
      'x-goog-resource-state': state,
      'x-goog-message-number': String(number),
      'x-goog-resource-id': channel.resourceId,
      'x-goog-resource-uri': `https://www.googleapis.com/calendar/v3/calendars/${encodeURIComponent(channel.calendarId)}/events?alt=json`,
      ...(channel.token !== undefined ? { 'x-goog-channel-token': channel.token } : {}),
    };
    const sent = fetch(channel.address, { method: 'POST', headers, signal: AbortSignal.timeout(10_000) })
      .then(async (r) => {
        record.status = r.status;
        await r.arrayBuffer();
      })
      .catch(() => {})
      .finally(() => this.sending.delete(sent));
    this.sending.add(sent);
  }

  private syncToken(sequence: number) {
    return `fake-sync.${this.epoch}.${sequence}`;
  }

  /** events.list, events.watch and channels.stop; false for the other paths. */
  private changesApi(req: RecordedRequest, res: http.ServerResponse): boolean {
    const path = req.path.slice(this.calendarPrefix.length);
    if (path === '/channels/stop' && req.method === 'POST') {
      const { id, resourceId } = req.json<{ id?: string; resourceId?: string }>();
      const channel = id ? this.channels.get(id) : undefined;
      if (!channel || channel.resourceId !== resourceId) send(res, 404, { error: { code: 404, message: `Channel '${id}' not found for project` } });
      else {
        this.channels.delete(channel.id);
        this.stoppedChannels.push(channel.id);
        send(res, 204);
      }
      return true;
    }
    const watch = /^\/calendars\/([^/]+)\/events\/watch$/.exec(path);
    if (watch && req.method === 'POST') {
      const body = req.json<{ id?: string; type?: string; address?: string; token?: string; params?: { ttl?: string } }>();
      if (!body.id || body.type !== 'web_hook' || !body.address || !/^https?:\/\//.test(body.address))
        send(res, 400, { error: { code: 400, message: 'Invalid channel: id, type web_hook and an address are required' } });
      else if (this.channels.has(body.id)) send(res, 400, { error: { code: 400, message: `Channel id ${body.id} not unique` } });
      else {
        const ttl = Math.min(Number(body.params?.ttl ?? 604_800), 2_592_000);
        const channel = {
          id: body.id,
          resourceId: `fake-resource-${randomBytes(6).toString('hex')}`,
          calendarId: decodeURIComponent(watch[1]!),
          address: body.address,
          token: body.token,
          expiration: this.now() + ttl * 1000,
        };
        this.channels.set(channel.id, channel);
        send(res, 200, {
          kind: 'api#channel',
          id: channel.id,
          resourceId: channel.resourceId,
          resourceUri: `https://www.googleapis.com/calendar/v3/calendars/${watch[1]}/events?alt=json`,
          ...(channel.token !== undefined ? { token: channel.token } : {}),
          expiration: String(channel.expiration),
        });
        // Google's first message on a new channel.
        this.notify(channel, 'sync');
      }
      return true;
    }
    const list = /^\/calendars\/([^/]+)\/events$/.exec(path);
    if (!list || req.method !== 'GET') return false;
    const calendarId = decodeURIComponent(list[1]!);
    const q = req.query;
    let since: number | null = null;
    let snapshot = this.sequence;
    let offset = 0;
    if (q.pageToken) {
      const page = /^page\.(\d+)\.(\d+)\.(-?\d+)$/.exec(q.pageToken);
      if (!page) {
        send(res, 400, { error: { code: 400, message: 'Invalid page token value.' } });
        return true;
      }
      snapshot = Number(page[1]);
      offset = Number(page[2]);
      since = Number(page[3]) < 0 ? null : Number(page[3]);
    } else if (q.syncToken !== undefined) {
      if (q.timeMin || q.timeMax || q.q || q.updatedMin) {
        send(res, 400, { error: { code: 400, message: 'The syncToken cannot be used with timeMin, timeMax, q or updatedMin.' } });
        return true;
      }
      const token = /^fake-sync\.(\d+)\.(\d+)$/.exec(q.syncToken);
      if (!token || Number(token[1]) !== this.epoch) {
        send(res, 410, {
          error: {
            code: 410,
            message: 'Sync token is no longer valid, a full sync is required.',
            errors: [{ domain: 'calendar', reason: 'fullSyncRequired' }],
          },
        });
        return true;
      }
      since = Number(token[2]);
    }
    const stampOf = (id: string) => this.stamps.get(id) ?? 0;
    const timeMin = q.timeMin ? Date.parse(q.timeMin) : null;
    const showDeleted = since !== null || q.showDeleted === 'true';
    const items: Record<string, unknown>[] = [];
    for (const event of this.events.values()) {
      if (event.calendarId !== calendarId || stampOf(event.id) > snapshot) continue;
      if (since !== null ? stampOf(event.id) <= since : timeMin !== null && Date.parse(event.end?.dateTime ?? '') < timeMin) continue;
      const { calendarId: _calendar, ...resource } = event;
      items.push({ kind: 'calendar#event', ...resource });
    }
    if (showDeleted)
      for (const gone of this.tombstones.values()) {
        if (gone.calendarId !== calendarId || stampOf(gone.id) > snapshot || (since !== null && stampOf(gone.id) <= since)) continue;
        items.push({ kind: 'calendar#event', id: gone.id, status: 'cancelled' });
      }
    items.sort((a, b) => stampOf(a.id as string) - stampOf(b.id as string));
    const size = Math.min(Number(q.maxResults ?? this.pageSize) || this.pageSize, this.pageSize);
    const pageItems = items.slice(offset, offset + size);
    const more = offset + size < items.length;
    send(res, 200, {
      kind: 'calendar#events',
      summary: calendarId,
      items: pageItems,
      ...(more ? { nextPageToken: `page.${snapshot}.${offset + size}.${since ?? -1}` } : { nextSyncToken: this.syncToken(snapshot) }),
    });
    return true;
  }

  // Busy times (issue 20 item 2): events the attorney made, and freeBusy ------------------------------

  /** An event the attorney made in Google Calendar (not through the API): busy in freeBusy unless cancelled or transparent. Returns its id. */
  addEvent(event: GoogleBusyEvent): string {
    const id = randomUUID().replace(/-/g, '');
    this.events.set(id, { status: 'confirmed', ...event, id, calendarId: event.calendarId ?? 'primary' } as GoogleEvent);
    this.changed(id);
    return id;
  }

  /** Requests to the events collections (not the busy-time reads). */
  eventRequests() {
    return this.apiRequests().filter((r) => /\/calendars\/[^/]+\/events(\/|$)/.test(r.path));
  }

  /** freeBusy requests received. */
  freeBusyRequests() {
    return this.requests.filter((r) => r.path === `${this.calendarPrefix}/freeBusy`);
  }

  /**
   * POST /freeBusy as Calendar API v3 documents it: { timeMin, timeMax, timeZone?, items: [{ id }] } ->
   * { kind: 'calendar#freeBusy', timeMin, timeMax, calendars: { [id]: { busy: [{ start, end }] } } },
   * computed from the live events (not cancelled, not transparent), clipped to the range and merged.
   * All-day events start at midnight in the request's timeZone (UTC when none).
   */
  freeBusy(req: RecordedRequest, res: http.ServerResponse) {
    if (req.method !== 'POST') return send(res, 405, { error: { code: 405, message: 'Method not allowed' } });
    let body: { timeMin?: string; timeMax?: string; timeZone?: string; items?: { id?: string }[] };
    try {
      body = req.json();
    } catch {
      return send(res, 400, { error: { code: 400, message: 'Parse Error' } });
    }
    const from = Date.parse(body.timeMin ?? '');
    const to = Date.parse(body.timeMax ?? '');
    if (!hasOffset(body.timeMin ?? '') || !hasOffset(body.timeMax ?? '') || Number.isNaN(from) || Number.isNaN(to)) {
      return send(res, 400, { error: { code: 400, message: 'Bad Request', errors: [{ domain: 'global', reason: 'badRequest' }] } });
    }
    if (to <= from) return send(res, 400, { error: { code: 400, message: 'The specified time range is empty.', errors: [{ reason: 'timeRangeEmpty' }] } });
    const zone = body.timeZone ?? 'UTC';
    const at = (t: { dateTime?: string; date?: string; timeZone?: string } | undefined) =>
      t?.date
        ? wallToInstant(t.date, zone)
        : t?.dateTime
          ? hasOffset(t.dateTime)
            ? Date.parse(t.dateTime)
            : wallToInstant(t.dateTime, t.timeZone ?? zone)
          : NaN;
    const calendars: Record<string, { busy: { start: string; end: string }[] }> = {};
    for (const item of body.items ?? []) {
      const id = item.id ?? '';
      const intervals = [...this.events.values()]
        .filter((e) => e.calendarId === id && e.status !== 'cancelled' && e.transparency !== 'transparent')
        .map((e) => ({ start: Math.max(at(e.start), from), end: Math.min(at(e.end), to) }))
        .filter((i) => i.start < i.end);
      calendars[id] = { busy: mergeIntervals(intervals).map((i) => ({ start: new Date(i.start).toISOString(), end: new Date(i.end).toISOString() })) };
    }
    send(res, 200, { kind: 'calendar#freeBusy', timeMin: new Date(from).toISOString(), timeMax: new Date(to).toISOString(), calendars });
  }
}

// Google busy times (issue 20 item 2) --------------------------------------------------------------

export interface GoogleBusyEvent {
  /** Default 'primary'. */
  calendarId?: string;
  /** ISO instants, or all-day: { date: '2030-07-03' } (end: the day after, exclusive, as Google has it). */
  start: { dateTime: string } | { date: string };
  end: { dateTime: string } | { date: string };
  summary?: string;
  status?: 'confirmed' | 'tentative' | 'cancelled';
  transparency?: 'opaque' | 'transparent';
}

// ------------------------------------------------------------------------------------------- Microsoft

export interface GraphEvent {
  id: string;
  user: string;
  subject?: string;
  showAs?: string;
  transactionId?: string;
  start?: { dateTime?: string; timeZone?: string };
  end?: { dateTime?: string; timeZone?: string };
  [key: string]: unknown;
}

export interface MicrosoftFakeOptions {
  /** Default '/graph/v1.0'. */
  graphPrefix?: string;
  /** Default '/microsoft-login'. */
  loginPrefix?: string;
  /** When set, only these credentials get a token (others: 401 invalid_client). */
  credentials?: { tenantId: string; clientId: string; clientSecret: string };
  tokenLifetimeSeconds?: number;
  /** Connect (issue 20): the signed-in Microsoft 365 account the consent page shows. */
  account?: { email: string; name: string };
}

/** A calendar of the signed-in user (Graph calendar resource, the fields the site reads). */
export interface GraphCalendar {
  id: string;
  name: string;
  canEdit: boolean;
  isDefaultCalendar?: boolean;
}

export class MicrosoftGraphFake extends Recorder implements FakeService {
  readonly graphPrefix: string;
  readonly loginPrefix: string;
  credentials: MicrosoftFakeOptions['credentials'];
  tokenLifetimeSeconds: number;
  readonly issuedTokens: string[] = [];
  private validTokens = new Set<string>();
  readonly events = new Map<string, GraphEvent>();
  /** Connect: registered app registrations, codes and (rotating) refresh tokens. */
  readonly oauth: OAuthConsent;
  /** Delegated access tokens, by the user they act for (Graph's /me). */
  private delegated = new Map<string, string>();
  /** The signed-in user's calendars. */
  calendars: GraphCalendar[];

  constructor(options: MicrosoftFakeOptions = {}) {
    super();
    const account = options.account ?? { email: 'dana.whitfield@example-firm.test', name: 'Dana Whitfield' };
    this.oauth = new OAuthConsent('Microsoft', account);
    this.calendars = [
      { id: 'AAMkAGfake-calendar-default=', name: 'Calendar', canEdit: true, isDefaultCalendar: true },
      { id: 'AAMkAGfake-calendar-court=', name: 'Court dates', canEdit: true },
      { id: 'AAMkAGfake-calendar-holidays=', name: 'United States holidays', canEdit: false },
    ];
    this.graphPrefix = trimSlash(options.graphPrefix ?? '/graph/v1.0');
    this.loginPrefix = trimSlash(options.loginPrefix ?? '/microsoft-login');
    this.credentials = options.credentials;
    this.tokenLifetimeSeconds = options.tokenLifetimeSeconds ?? 3599;
  }

  revokeTokens() {
    this.validTokens.clear();
  }

  tokenRequests() {
    return this.requests.filter((r) => r.path.startsWith(`${this.loginPrefix}/`));
  }

  apiRequests() {
    return this.requests.filter((r) => r.path.startsWith(`${this.graphPrefix}/`));
  }

  handle(req: RecordedRequest, res: http.ServerResponse): boolean {
    if (req.path.startsWith(`${this.loginPrefix}/`)) {
      if (!this.intercept(req, res)) this.token(req, res);
      return true;
    }
    if (!req.path.startsWith(`${this.graphPrefix}/`)) return false;
    if (!this.intercept(req, res)) this.graph(req, res);
    return true;
  }

  /** Every refresh token issued through consent stops working (the user removed the app's access). */
  revokeGrants() {
    for (const grant of this.oauth.refreshTokens.values()) grant.revoked = true;
  }

  private token(req: RecordedRequest, res: http.ServerResponse) {
    const authorize = /^\/([^/]+)\/oauth2\/v2\.0\/authorize$/.exec(req.path.slice(this.loginPrefix.length));
    if (authorize) return req.method === 'POST' ? this.oauth.decide(req, res) : this.oauth.page(req, res, req.path);
    const m = /^\/([^/]+)\/oauth2\/v2\.0\/token$/.exec(req.path.slice(this.loginPrefix.length));
    if (!m || req.method !== 'POST') return send(res, 404, { error: 'not_found' });
    const tenant = decodeURIComponent(m[1]!);
    const form = req.form();
    if (form.grant_type === 'authorization_code' || form.grant_type === 'refresh_token') return this.delegatedToken(form, res);
    if (form.grant_type !== 'client_credentials')
      return send(res, 400, { error: 'unsupported_grant_type', error_description: 'AADSTS70003: grant type not supported' });
    if (form.scope !== 'https://graph.microsoft.com/.default')
      return send(res, 400, { error: 'invalid_scope', error_description: 'AADSTS1002012: scope must end in /.default' });
    const c = this.credentials;
    if (c && tenant !== c.tenantId) return send(res, 400, { error: 'invalid_request', error_description: `AADSTS90002: Tenant '${tenant}' not found` });
    if (c && (form.client_id !== c.clientId || form.client_secret !== c.clientSecret))
      return send(res, 401, { error: 'invalid_client', error_description: 'AADSTS7000215: Invalid client secret provided' });
    const token = `eyJ0eXAiOiJKV1QifQ.fake-${randomBytes(12).toString('hex')}`;
    this.issuedTokens.push(token);
    this.validTokens.add(token);
    send(res, 200, { token_type: 'Bearer', expires_in: this.tokenLifetimeSeconds, ext_expires_in: this.tokenLifetimeSeconds, access_token: token });
  }

  /**
   * The delegated grants (Connect): authorization_code with PKCE, and refresh_token, which answers
   * a new refresh token each time (Microsoft rotates them; the old one stays valid until it expires).
   */
  private delegatedToken(form: Record<string, string>, res: http.ServerResponse) {
    let clientId: string;
    let scope: string;
    let idToken: string | undefined;
    if (form.grant_type === 'authorization_code') {
      const redeemed = this.oauth.redeem(form);
      if ('refusal' in redeemed) {
        const [status, body] = redeemed.refusal as [number, { error: string; error_description: string }];
        // The identity platform's words for the same refusals.
        const aad: Record<string, string> = {
          'code_verifier or verifier is not valid': 'AADSTS501481: The Code_Verifier does not match the code_challenge supplied in the authorization request.',
          'Bad Request': 'AADSTS54005: OAuth2 Authorization code was already redeemed.',
        };
        return send(res, status, { ...body, error_description: aad[body.error_description] ?? body.error_description });
      }
      clientId = redeemed.clientId;
      scope = redeemed.scope;
      this.oauth.refreshTokens.delete(redeemed.refreshToken);
      idToken = this.oauth.idToken(clientId, 'https://login.microsoftonline.com/fake-tenant/v2.0');
    } else {
      const grant = this.oauth.refreshTokens.get(form.refresh_token ?? '');
      const client = this.oauth.client(form.client_id);
      if (!client || client.clientSecret !== form.client_secret)
        return send(res, 401, { error: 'invalid_client', error_description: 'AADSTS7000215: Invalid client secret provided.' });
      if (!grant || grant.clientId !== client.clientId)
        return send(res, 400, { error: 'invalid_grant', error_description: 'AADSTS9002313: Invalid request. Request is malformed or invalid.' });
      if (grant.revoked)
        return send(res, 400, { error: 'invalid_grant', error_description: 'AADSTS50173: The provided grant has expired due to it being revoked.' });
      clientId = client.clientId;
      scope = form.scope ?? '';
    }
    const refreshToken = `0.fake-ms-refresh-${randomBytes(16).toString('base64url')}`;
    this.oauth.refreshTokens.set(refreshToken, { clientId, revoked: false });
    const token = `eyJ0eXAiOiJKV1QifQ.fake-delegated-${randomBytes(12).toString('hex')}`;
    this.issuedTokens.push(token);
    this.validTokens.add(token);
    this.delegated.set(token, this.oauth.account.email);
    send(res, 200, {
      token_type: 'Bearer',
      scope: scope.replace(/\b(openid|email|offline_access)\b/g, '').trim() || scope,
      expires_in: this.tokenLifetimeSeconds,
      ext_expires_in: this.tokenLifetimeSeconds,
      access_token: token,
      refresh_token: refreshToken,
      ...(idToken ? { id_token: idToken } : {}),
    });
  }

  private graph(req: RecordedRequest, res: http.ServerResponse) {
    const token = bearer(req);
    if (!token || !this.validTokens.has(token)) {
      return send(res, 401, { error: { code: 'InvalidAuthenticationToken', message: 'Access token has expired or is not yet valid.' } });
    }
    let path = req.path.slice(this.graphPrefix.length);
    // /me: the signed-in user of a delegated token (an app-only token has none).
    if (path === '/me' || path.startsWith('/me/')) {
      const me = this.delegated.get(token);
      if (!me) return send(res, 400, { error: { code: 'BadRequest', message: '/me request is only valid with delegated authentication flow.' } });
      if (path === '/me' && req.method === 'GET')
        return send(res, 200, { id: `fake-${me}`, displayName: this.oauth.account.name, mail: me, userPrincipalName: me });
      if (path === '/me/calendars' && req.method === 'GET')
        return send(res, 200, { '@odata.context': `${this.graphPrefix}/$metadata#users('${me}')/calendars`, value: this.calendars });
      path = `/users/${encodeURIComponent(me)}${path.slice(3).replace(/^\/calendars\/[^/]+\/events/, '/events')}`;
    }
    // What the busy-time and change readers serve, on the rewritten path (/me as the signed-in user).
    const routed = path === req.path.slice(this.graphPrefix.length) ? req : { ...req, path: `${this.graphPrefix}${path}` };
    const view = /^\/users\/([^/]+)(?:\/calendars\/([^/]+))?\/calendarView$/.exec(path);
    if (view) return this.calendarView(routed, res, decodeURIComponent(view[1]!), view[2] ? decodeURIComponent(view[2]) : null);
    if (this.changesApi(routed, res)) return;
    const m = /^\/users\/([^/]+)\/events(?:\/([^/]+))?$/.exec(path);
    if (!m) return send(res, 404, { error: { code: 'ResourceNotFound', message: 'Resource not found' } });
    const user = decodeURIComponent(m[1]!);
    const eventId = m[2] ? decodeURIComponent(m[2]) : null;
    if (!eventId && req.method === 'POST') {
      const body = req.json<Partial<GraphEvent>>();
      if (!body.start?.dateTime || !body.end?.dateTime) return send(res, 400, { error: { code: 'ErrorInvalidRequest', message: 'Missing start or end' } });
      // transactionId: a retried POST gets the event made the first time.
      const again = body.transactionId ? [...this.events.values()].find((e) => e.transactionId === body.transactionId) : undefined;
      if (again) return send(res, 201, again);
      const id = `AAMkAGfake${randomBytes(16).toString('base64url')}=`;
      const event: GraphEvent = { ...body, id, user };
      this.events.set(id, event);
      this.changed(id, 'created');
      return send(res, 201, event);
    }
    if (!eventId) return send(res, 405, { error: { code: 'ErrorInvalidRequest', message: 'Method not allowed' } });
    const existing = this.events.get(eventId);
    if (!existing || existing.user !== user)
      return send(res, 404, { error: { code: 'ErrorItemNotFound', message: 'The specified object was not found in the store.' } });
    if (req.method === 'PATCH') {
      const patched: GraphEvent = { ...existing, ...req.json<Partial<GraphEvent>>(), id: eventId, user };
      this.events.set(eventId, patched);
      this.changed(eventId, 'updated');
      return send(res, 200, patched);
    }
    if (req.method === 'DELETE') {
      this.removeEvent(eventId);
      return send(res, 204);
    }
    if (req.method === 'GET') return send(res, 200, existing);
    return send(res, 405, { error: { code: 'ErrorInvalidRequest', message: 'Method not allowed' } });
  }

  // ---------------------------------------------------------------- Graph: reading changes (issue 20, item 3)
  // calendarView/delta (startDateTime/endDateTime, then @odata.nextLink pages and an @odata.deltaLink;
  // a deleted event comes back as { id, "@removed": { reason: "deleted" } }; times in UTC, as Graph
  // gives them without a Prefer: outlook.timezone header), 410 for a delta token the fake was told to
  // forget; subscriptions (POST validates the notificationUrl with ?validationToken= and wants the
  // token echoed as text/plain within 10 s; PATCH renews; DELETE) that POST change notifications.
  // https://learn.microsoft.com/graph/delta-query-events, /graph/change-notifications-delivery-webhooks

  /** Items per delta page (Graph's odata.maxpagesize). */
  pageSize = 100;
  /** The fake's clock for subscription expirations (a test on a fixed clock gives its own). */
  now: () => number = () => Date.now();
  private sequence = 0;
  private readonly stamps = new Map<string, number>();
  private epoch = 1;
  private readonly removed = new Map<string, { id: string; user: string }>();
  /** Live subscriptions by id. */
  readonly subscriptions = new Map<
    string,
    { id: string; resource: string; user: string; changeType: string; notificationUrl: string; clientState?: string; expirationDateTime: string }
  >();
  readonly deletedSubscriptions: string[] = [];
  /** Every change notification POSTed, with the answer's status (null: could not connect). */
  readonly notifications: { subscriptionId: string; changeType: string; status: number | null }[] = [];
  private readonly sending = new Set<Promise<unknown>>();

  /** Every delta link given so far answers 410 Gone (Graph's syncStateNotFound). */
  expireDeltaLinks() {
    this.epoch++;
  }

  /** As the attorney moving the event in Outlook: new start and end (kept in UTC, as Outlook may). */
  moveEvent(id: string, start: Date | string, end: Date | string) {
    const event = this.events.get(id);
    if (!event) throw new Error(`no Graph event ${id}`);
    const at = (d: Date | string) => ({ dateTime: new Date(d).toISOString().replace('Z', '0000'), timeZone: 'UTC' });
    this.events.set(id, { ...event, start: at(start), end: at(end) });
    this.changed(id, 'updated');
  }

  /** As the attorney deleting the event in Outlook. */
  deleteEventAsOwner(id: string) {
    if (!this.events.has(id)) throw new Error(`no Graph event ${id}`);
    this.removeEvent(id);
  }

  async notificationsSettled() {
    while (this.sending.size) await Promise.allSettled([...this.sending]);
  }

  private removeEvent(id: string) {
    const event = this.events.get(id)!;
    this.events.delete(id);
    this.removed.set(id, { id, user: event.user });
    this.changed(id, 'deleted');
  }

  private changed(id: string, changeType: 'created' | 'updated' | 'deleted') {
    this.stamps.set(id, ++this.sequence);
    const user = this.events.get(id)?.user ?? this.removed.get(id)?.user;
    for (const sub of this.subscriptions.values()) {
      if (sub.user !== user || !sub.changeType.split(',').includes(changeType)) continue;
      const record = { subscriptionId: sub.id, changeType, status: null as number | null };
      this.notifications.push(record);
      const body = JSON.stringify({
        value: [
          {
            subscriptionId: sub.id,
            subscriptionExpirationDateTime: sub.expirationDateTime,
            changeType,
            resource: `Users/${user}/Events/${id}`,
            resourceData: { '@odata.type': '#Microsoft.Graph.Event', '@odata.id': `Users/${user}/Events/${id}`, id },
            ...(sub.clientState !== undefined ? { clientState: sub.clientState } : {}),
            tenantId: 'fake-tenant',
          },
        ],
      });
      const sent = fetch(sub.notificationUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body, signal: AbortSignal.timeout(10_000) })
        .then(async (r) => {
          record.status = r.status;
          await r.arrayBuffer();
        })
        .catch(() => {})
        .finally(() => this.sending.delete(sent));
      this.sending.add(sent);
    }
  }

  /** An event's start or end in UTC, as Graph answers without a Prefer: outlook.timezone header. */
  private utc(time: { dateTime?: string; timeZone?: string } | undefined) {
    if (!time?.dateTime) return time;
    if (!time.timeZone || time.timeZone === 'UTC') return { dateTime: time.dateTime.replace(/Z$/, ''), timeZone: 'UTC' };
    if (time.timeZone !== 'Pacific Standard Time') throw new Error(`the fake does not know the zone ${time.timeZone}`);
    const wall = Date.parse(`${time.dateTime.replace(/Z$/, '')}Z`);
    const offset = (at: number) => {
      const parts = Object.fromEntries(
        new Intl.DateTimeFormat('en-US', {
          timeZone: 'America/Los_Angeles',
          hourCycle: 'h23',
          year: 'numeric',
          month: '2-digit',
          day: '2-digit',
          hour: '2-digit',
          minute: '2-digit',
          second: '2-digit',
        })
          .formatToParts(new Date(at))
          .map((p) => [p.type, p.value]),
      );
      return Date.UTC(+parts.year!, +parts.month! - 1, +parts.day!, +parts.hour!, +parts.minute!, +parts.second!) - at;
    };
    const guess = wall - offset(wall);
    const instant = wall - offset(guess);
    return { dateTime: new Date(instant).toISOString().replace('Z', '0000'), timeZone: 'UTC' };
  }

  private changesApi(req: RecordedRequest, res: http.ServerResponse): boolean {
    const path = req.path.slice(this.graphPrefix.length);
    const origin = `http://${req.headers.host}${this.graphPrefix}`;
    if (path === '/subscriptions' && req.method === 'POST') {
      void this.subscribe(req, res);
      return true;
    }
    const one = /^\/subscriptions\/([^/]+)$/.exec(path);
    if (one) {
      const sub = this.subscriptions.get(decodeURIComponent(one[1]!));
      if (!sub) send(res, 404, { error: { code: 'ResourceNotFound', message: 'The object was not found.' } });
      else if (req.method === 'PATCH') {
        const { expirationDateTime } = req.json<{ expirationDateTime?: string }>();
        const problem = this.expirationProblem(expirationDateTime);
        if (problem) send(res, 400, { error: { code: 'ExtensionError', message: problem } });
        else {
          sub.expirationDateTime = expirationDateTime!;
          send(res, 200, sub);
        }
      } else if (req.method === 'DELETE') {
        this.subscriptions.delete(sub.id);
        this.deletedSubscriptions.push(sub.id);
        send(res, 204);
      } else send(res, 405, { error: { code: 'ErrorInvalidRequest', message: 'Method not allowed' } });
      return true;
    }
    const delta = /^\/users\/([^/]+)\/calendarView\/delta$/.exec(path);
    if (!delta || req.method !== 'GET') return false;
    const user = decodeURIComponent(delta[1]!);
    const q = req.query;
    let since: number | null = null;
    let snapshot = this.sequence;
    let offset = 0;
    let window: [number, number];
    const token = q.$skiptoken ?? q.$deltatoken;
    if (token) {
      const t = /^(\d+)\.(\d+)\.(\d+)\.(-?\d+)\.(\d+)\.(\d+)$/.exec(token);
      if (!t || Number(t[1]) !== this.epoch) {
        send(res, 410, { error: { code: 'SyncStateNotFound', message: 'The sync state generation is not found. Please resync.' } });
        return true;
      }
      window = [Number(t[5]), Number(t[6])];
      if (q.$skiptoken) {
        snapshot = Number(t[2]);
        offset = Number(t[3]);
        since = Number(t[4]) < 0 ? null : Number(t[4]);
      } else {
        since = Number(t[2]);
      }
    } else {
      const from = Date.parse(q.startDateTime ?? '');
      const to = Date.parse(q.endDateTime ?? '');
      if (Number.isNaN(from) || Number.isNaN(to)) {
        send(res, 400, {
          error: {
            code: 'ErrorInvalidParameter',
            message: 'This request requires a time window specified by the query string parameters StartDateTime and EndDateTime.',
          },
        });
        return true;
      }
      window = [from, to];
    }
    const stampOf = (id: string) => this.stamps.get(id) ?? 0;
    const items: Record<string, unknown>[] = [];
    for (const event of this.events.values()) {
      if (event.user !== user || stampOf(event.id) > snapshot || (since !== null && stampOf(event.id) <= since)) continue;
      const start = this.utc(event.start)!;
      const end = this.utc(event.end)!;
      if (Date.parse(`${end.dateTime}Z`) < window[0] || Date.parse(`${start.dateTime}Z`) > window[1]) continue;
      const { user: _user, transactionId: _t, ...resource } = event;
      items.push({ '@odata.type': '#microsoft.graph.event', ...resource, start, end, isCancelled: false });
    }
    // The first round lists what is there; later rounds also what was removed.
    if (since !== null)
      for (const gone of this.removed.values())
        if (gone.user === user && stampOf(gone.id) <= snapshot && stampOf(gone.id) > since)
          items.push({ '@odata.type': '#microsoft.graph.event', id: gone.id, '@removed': { reason: 'deleted' } });
    items.sort((a, b) => stampOf(a.id as string) - stampOf(b.id as string));
    const pageItems = items.slice(offset, offset + this.pageSize);
    const more = offset + this.pageSize < items.length;
    const base = `${origin}/users/${encodeURIComponent(user)}/calendarView/delta`;
    const link = (kind: string, value: string) => `${base}?${kind}=${value}`;
    send(res, 200, {
      '@odata.context': `${origin}/$metadata#Collection(event)`,
      value: pageItems,
      ...(more
        ? { '@odata.nextLink': link('$skiptoken', `${this.epoch}.${snapshot}.${offset + this.pageSize}.${since ?? -1}.${window[0]}.${window[1]}`) }
        : { '@odata.deltaLink': link('$deltatoken', `${this.epoch}.${snapshot}.0.-1.${window[0]}.${window[1]}`) }),
    });
    return true;
  }

  /** Graph's limit for event subscriptions: 10,080 minutes (under 7 days). */
  private expirationProblem(expiration: string | undefined): string | null {
    const at = Date.parse(expiration ?? '');
    if (Number.isNaN(at)) return 'expirationDateTime is required';
    if (at <= this.now()) return 'Subscription expiration can only be in the future.';
    if (at > this.now() + 10_080 * 60_000) return 'Subscription expiration can only be 10070 minutes in the future.';
    return null;
  }

  private async subscribe(req: RecordedRequest, res: http.ServerResponse) {
    const body = req.json<{ changeType?: string; notificationUrl?: string; resource?: string; expirationDateTime?: string; clientState?: string }>();
    const resource = /^\/?(?:users\/([^/]+)|me)(?:\/calendars\/[^/]+)?\/events$/i.exec(body.resource ?? '');
    const problem = !body.changeType?.split(',').every((c) => ['created', 'updated', 'deleted'].includes(c))
      ? 'changeType must be created, updated and/or deleted'
      : !resource?.[1]
        ? `Resource '${body.resource}' is not supported by this fake (users/{id}/events)`
        : !body.notificationUrl || !/^https?:\/\//.test(body.notificationUrl)
          ? 'notificationUrl must be an absolute URL'
          : this.expirationProblem(body.expirationDateTime);
    if (problem) return send(res, 400, { error: { code: 'InvalidRequest', message: problem } });
    // The validation request: the endpoint must echo the token, as text/plain, within 10 seconds.
    const validationToken = `Validation: Testing client application reachability for subscription Request-Id: ${randomUUID()}`;
    const url = new URL(body.notificationUrl!);
    url.searchParams.set('validationToken', validationToken);
    let valid = false;
    try {
      const answer = await fetch(url, { method: 'POST', headers: { 'content-type': 'text/plain; charset=utf-8' }, signal: AbortSignal.timeout(10_000) });
      valid = answer.status === 200 && (answer.headers.get('content-type') ?? '').startsWith('text/plain') && (await answer.text()) === validationToken;
    } catch {
      valid = false;
    }
    if (!valid)
      return send(res, 400, {
        error: {
          code: 'InvalidRequest',
          message: 'Subscription validation request failed. Notification endpoint must respond with 200 OK to validation request.',
        },
      });
    const sub = {
      id: randomUUID(),
      resource: body.resource!,
      user: decodeURIComponent(resource![1]!),
      changeType: body.changeType!,
      notificationUrl: body.notificationUrl!,
      clientState: body.clientState,
      expirationDateTime: body.expirationDateTime!,
    };
    this.subscriptions.set(sub.id, sub);
    send(res, 201, { '@odata.context': 'https://graph.microsoft.com/v1.0/$metadata#subscriptions/$entity', applicationId: 'fake-app', ...sub });
  }

  // Busy times (issue 20 item 2): events the attorney made, and calendarView -------------------------

  /** Events per calendarView page when the request's $top does not ask fewer. */
  calendarViewPageSize = 10;

  /** An event the attorney made in Outlook (not through the API). Returns its id. */
  addEvent(event: GraphBusyEvent): string {
    const id = `AAMkAGfake${randomBytes(16).toString('base64url')}=`;
    this.events.set(id, { showAs: 'busy', isCancelled: false, ...event, id });
    this.changed(id, 'created');
    return id;
  }

  /** Requests to the events collections (not the busy-time reads). */
  eventRequests() {
    return this.apiRequests().filter((r) => /\/events(\/|$)/.test(r.path));
  }

  /** calendarView requests received (every page). */
  calendarViewRequests() {
    return this.requests.filter((r) => r.path.endsWith('/calendarView'));
  }

  /**
   * GET /users/{id}[/calendars/{id}]/calendarView?startDateTime&endDateTime as Graph documents it: the
   * events (occurrences) overlapping the range, with $select honoured for showAs, start, end, isCancelled
   * (and subject, id), times in the zone Prefer: outlook.timezone="…" asks (UTC by default), and at most
   * $top (or calendarViewPageSize) per page, the rest behind @odata.nextLink ($skip).
   */
  calendarView(req: RecordedRequest, res: http.ServerResponse, user: string, calendarId: string | null) {
    if (req.method !== 'GET') return send(res, 405, { error: { code: 'ErrorInvalidRequest', message: 'Method not allowed' } });
    const { startDateTime, endDateTime } = req.query;
    const from = Date.parse(startDateTime ?? '');
    const to = Date.parse(endDateTime ?? '');
    if (Number.isNaN(from) || Number.isNaN(to)) {
      return send(res, 400, {
        error: {
          code: 'ErrorInvalidParameter',
          message: "This request requires a time window specified by the query string parameters 'StartDateTime' and 'EndDateTime'.",
        },
      });
    }
    const preferred = /outlook\.timezone="([^"]+)"/.exec(req.headers.prefer ?? '')?.[1] ?? 'UTC';
    const outZone = windowsZones[preferred] ?? preferred;
    const instant = (t: { dateTime?: string; timeZone?: string } | undefined) =>
      t?.dateTime ? (hasOffset(t.dateTime) ? Date.parse(t.dateTime) : wallToInstant(t.dateTime, windowsZones[t.timeZone ?? 'UTC'] ?? 'UTC')) : NaN;
    const matching = [...this.events.values()]
      .filter((e) => e.user === user && ((e.calendarId as string | undefined) ?? null) === calendarId)
      .map((e) => ({ e, start: instant(e.start), end: instant(e.end) }))
      .filter((x) => x.start < to && from < x.end)
      .sort((a, b) => a.start - b.start);
    const top = Math.min(Number(req.query.$top) || this.calendarViewPageSize, this.calendarViewPageSize);
    const skip = Number(req.query.$skip) || 0;
    const page = matching.slice(skip, skip + top);
    const select = req.query.$select ? new Set(req.query.$select.split(',').map((f) => f.trim())) : null;
    const value = page.map(({ e, start, end }) => {
      const full: Record<string, unknown> = {
        id: e.id,
        subject: e.subject ?? '',
        showAs: e.showAs ?? 'busy',
        isCancelled: e.isCancelled ?? false,
        isAllDay: e.isAllDay ?? false,
        start: { dateTime: graphDateTime(start, outZone), timeZone: preferred },
        end: { dateTime: graphDateTime(end, outZone), timeZone: preferred },
      };
      // Graph always returns id (and the etag) whatever $select says.
      return select ? Object.fromEntries(Object.entries(full).filter(([k]) => k === 'id' || select.has(k))) : full;
    });
    const body: Record<string, unknown> = { '@odata.context': `${this.graphPrefix}/$metadata#users('${user}')/calendarView`, value };
    if (skip + top < matching.length) {
      const next = new URLSearchParams({ ...req.query, $skip: String(skip + top) });
      body['@odata.nextLink'] = `http://${req.headers.host}${req.path}?${next}`;
    }
    send(res, 200, body);
  }
}

// Microsoft busy times (issue 20 item 2) -----------------------------------------------------------

export interface GraphBusyEvent {
  /** The mailbox (app-only: the config's user_email). */
  user: string;
  /** A calendar of that mailbox other than the default one. */
  calendarId?: string;
  /** Wall-clock time in `timeZone` (a Windows name, 'Pacific Standard Time'), as Graph stores it. */
  start: { dateTime: string; timeZone: string };
  end: { dateTime: string; timeZone: string };
  subject?: string;
  /** free, tentative, busy, oof, workingElsewhere, unknown (Graph's freeBusyStatus); default busy. */
  showAs?: string;
  isCancelled?: boolean;
  isAllDay?: boolean;
}

/** Graph's dateTime: wall clock to the 100 ns, no offset. */
const graphDateTime = (instant: number, zone: string) => {
  const wall = new Date(instant + zoneOffsetMs(zone, instant)).toISOString().slice(0, 19);
  return `${wall}.0000000`;
};

// --------------------------------------------------------------------------------------------- Webhook

export class WebhookReceiver extends Recorder implements FakeService {
  readonly prefix: string;

  /** Receives every request under `prefix` (default '/webhook'), answering 200 unless told to fail. */
  constructor(prefix = '/webhook') {
    super();
    this.prefix = trimSlash(prefix);
  }

  /** Requests received at one path (e.g. '/webhook/a'). */
  at(path: string) {
    return this.requests.filter((r) => r.path === path);
  }

  handle(req: RecordedRequest, res: http.ServerResponse): boolean {
    if (req.path !== this.prefix && !req.path.startsWith(`${this.prefix}/`)) return false;
    if (!this.intercept(req, res)) send(res, 200, { received: true });
    return true;
  }
}

/**
 * Checks a `t=<seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>` header (the firm's webhooks and
 * Calendly's) the way a receiver would, in constant time.
 */
export function verifyTimestampedSignature(header: string | undefined, rawBody: string, secret: string): boolean {
  if (!header) return false;
  const parts = Object.fromEntries(header.split(',').map((p) => p.split('=', 2).map((s) => s.trim()) as [string, string]));
  if (!parts.t || !/^\d+$/.test(parts.t) || !parts.v1 || !/^[0-9a-f]{64}$/.test(parts.v1)) return false;
  const expected = createHmac('sha256', secret).update(`${parts.t}.${rawBody}`).digest();
  return timingSafeEqual(Buffer.from(parts.v1, 'hex'), expected);
}

/** A header in that format, for a request a test sends (a Calendly webhook). */
export function timestampedSignature(secret: string, rawBody: string, timestampSeconds: number): string {
  return `t=${timestampSeconds},v1=${createHmac('sha256', secret).update(`${timestampSeconds}.${rawBody}`).digest('hex')}`;
}

// ---------------------------------------------------------------------------------------------- Server

export interface FakeServer {
  /** http://127.0.0.1:<port> */
  url: string;
  port: number;
  close(): Promise<void>;
}

function record(req: http.IncomingMessage, body: string): RecordedRequest {
  const url = new URL(req.url ?? '/', 'http://fake.local');
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
  return {
    method: req.method ?? 'GET',
    path: url.pathname,
    query: Object.fromEntries(url.searchParams),
    headers,
    body,
    json: () => JSON.parse(body),
    form: () => Object.fromEntries(new URLSearchParams(body)),
  };
}

/** One loopback server in front of several fakes; the first whose paths match answers, others 404. */
export function startFakeServer(services: FakeService[], { port = 0, host = '127.0.0.1' }: { port?: number; host?: string } = {}): Promise<FakeServer> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const recorded = record(req, Buffer.concat(chunks).toString('utf8'));
      try {
        for (const service of services) if (await service.handle(recorded, res)) return;
        send(res, 404, { error: 'no fake serves this path' });
      } catch (err) {
        if (!res.headersSent) send(res, 500, { error: `fake failed: ${(err as Error).message}` });
      }
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const { port: actual } = server.address() as AddressInfo;
      resolve({
        url: `http://${host}:${actual}`,
        port: actual,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}

export interface CalendarFakes extends FakeServer {
  google: GoogleCalendarFake;
  microsoft: MicrosoftGraphFake;
  webhook: WebhookReceiver;
  /** The API's integration settings pointing at these fakes (what playwright.config.ts sets for e2e). */
  settings: {
    googleCalendarApiBase: string;
    googleTokenUrl: string;
    googleAuthorizeUrl: string;
    googleRevokeUrl: string;
    microsoftGraphApiBase: string;
    microsoftLoginBase: string;
  };
  /** Full URL of a webhook path, e.g. webhookUrl('/a') -> http://127.0.0.1:<port>/webhook/a */
  webhookUrl(path?: string): string;
}

/**
 * Google, Microsoft and a webhook receiver on one server, with the paths of playwright.config.ts.
 * `extra` fakes (another helper's SendGrid stand-in) can share the port: e2e has one fakes port.
 */
export async function startCalendarFakes(
  options: { port?: number; google?: GoogleFakeOptions; microsoft?: MicrosoftFakeOptions; webhookPrefix?: string; extra?: FakeService[] } = {},
): Promise<CalendarFakes> {
  const google = new GoogleCalendarFake(options.google);
  const microsoft = new MicrosoftGraphFake(options.microsoft);
  const webhook = new WebhookReceiver(options.webhookPrefix);
  const server = await startFakeServer([google, microsoft, webhook, ...(options.extra ?? [])], { port: options.port });
  return {
    ...server,
    google,
    microsoft,
    webhook,
    settings: {
      googleCalendarApiBase: `${server.url}${google.calendarPrefix}`,
      googleTokenUrl: `${server.url}${google.tokenPath}`,
      googleAuthorizeUrl: `${server.url}${google.authorizePath}`,
      googleRevokeUrl: `${server.url}${google.revokePath}`,
      microsoftGraphApiBase: `${server.url}${microsoft.graphPrefix}`,
      microsoftLoginBase: `${server.url}${microsoft.loginPrefix}`,
    },
    webhookUrl: (path = '') => `${server.url}${webhook.prefix}${path}`,
  };
}

// ------------------------------------------------------------------------- A firm's test integrations

/**
 * A Google and an Outlook integration's config as an admin would save them (SPEC §3's templates, with
 * the refresh token and mailbox the adapter needs), and the fakes' credentials that accept exactly
 * them: `startCalendarFakes(testCredentials)` and these configs go together.
 */
export const googleTestConfig = {
  client_id: 'google-client.apps.example.com',
  client_secret: 'GOCSPX-google-secret-0042',
  redirect_uri: 'https://firm.example.com/oauth/google',
  calendar_id: 'consultations@group.calendar.google.com',
  refresh_token: '1//google-refresh-token-7788',
};
export const outlookTestConfig = {
  client_id: 'outlook-client-id',
  client_secret: 'outlook~secret~value~9911',
  tenant_id: 'firm-tenant',
  user_email: 'calendar@firm.example.com',
};
export const testCredentials = {
  google: {
    credentials: { clientId: googleTestConfig.client_id, clientSecret: googleTestConfig.client_secret, refreshToken: googleTestConfig.refresh_token },
  },
  microsoft: {
    credentials: { tenantId: outlookTestConfig.tenant_id, clientId: outlookTestConfig.client_id, clientSecret: outlookTestConfig.client_secret },
  },
} satisfies { google: GoogleFakeOptions; microsoft: MicrosoftFakeOptions };
