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
    send(res, failure.rule.status ?? 503, failure.rule.body ?? { error: { code: failure.rule.status ?? 503, message: 'Injected failure' } });
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
  start?: { dateTime?: string; timeZone?: string };
  end?: { dateTime?: string; timeZone?: string };
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
      return send(res, 200, { kind: 'calendar#event', ...patched });
    }
    if (req.method === 'DELETE') {
      this.events.delete(eventId);
      this.deleted.add(eventId);
      return send(res, 204);
    }
    if (req.method === 'GET') return send(res, 200, { kind: 'calendar#event', ...existing });
    return send(res, 405, { error: { code: 405, message: 'Method not allowed' } });
  }
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
      return send(res, 201, event);
    }
    if (!eventId) return send(res, 405, { error: { code: 'ErrorInvalidRequest', message: 'Method not allowed' } });
    const existing = this.events.get(eventId);
    if (!existing || existing.user !== user)
      return send(res, 404, { error: { code: 'ErrorItemNotFound', message: 'The specified object was not found in the store.' } });
    if (req.method === 'PATCH') {
      const patched: GraphEvent = { ...existing, ...req.json<Partial<GraphEvent>>(), id: eventId, user };
      this.events.set(eventId, patched);
      return send(res, 200, patched);
    }
    if (req.method === 'DELETE') {
      this.events.delete(eventId);
      return send(res, 204);
    }
    if (req.method === 'GET') return send(res, 200, existing);
    return send(res, 405, { error: { code: 'ErrorInvalidRequest', message: 'Method not allowed' } });
  }
}

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
