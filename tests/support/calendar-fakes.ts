/**
 * Local stand-ins for the calendar providers, real HTTP servers on loopback that record
 * every request and can be told to fail: a Google fake (OAuth token endpoint + Calendar API v3), a
 * Microsoft fake (identity platform token endpoint + Graph events) and a plain webhook receiver.
 * Integration tests start them on port 0; e2e specs start them on E2E_FAKES_PORT with the path
 * prefixes playwright.config.ts gives the server (/google/calendar/v3, /google/token, /graph/v1.0,
 * /microsoft-login), several services on one port. No vitest import and nothing from api/: the
 * fakes check what they receive on their own (a signature is verified here, not by the code under test).
 */
import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
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

  constructor(options: GoogleFakeOptions = {}) {
    super();
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

  handle(req: RecordedRequest, res: http.ServerResponse): boolean {
    if (req.path === this.tokenPath) {
      if (!this.intercept(req, res)) this.token(req, res);
      return true;
    }
    if (!req.path.startsWith(`${this.calendarPrefix}/`)) return false;
    if (!this.intercept(req, res)) this.calendar(req, res);
    return true;
  }

  private token(req: RecordedRequest, res: http.ServerResponse) {
    if (req.method !== 'POST') return send(res, 405, { error: 'method_not_allowed' });
    const form = req.form();
    if (form.grant_type !== 'refresh_token') return send(res, 400, { error: 'unsupported_grant_type', error_description: 'Invalid grant_type' });
    if (!form.client_id || !form.client_secret || !form.refresh_token)
      return send(res, 400, { error: 'invalid_request', error_description: 'Missing parameter' });
    const c = this.credentials;
    if (c && (form.client_id !== c.clientId || form.client_secret !== c.clientSecret))
      return send(res, 401, { error: 'invalid_client', error_description: 'Unauthorized' });
    if (c && form.refresh_token !== c.refreshToken) return send(res, 400, { error: 'invalid_grant', error_description: 'Bad Request' });
    const token = `ya29.fake-${randomBytes(12).toString('hex')}`;
    this.issuedTokens.push(token);
    this.validTokens.add(token);
    send(res, 200, {
      access_token: token,
      expires_in: this.tokenLifetimeSeconds,
      scope: 'https://www.googleapis.com/auth/calendar.events',
      token_type: 'Bearer',
    });
  }

  private calendar(req: RecordedRequest, res: http.ServerResponse) {
    const token = bearer(req);
    if (!token || !this.validTokens.has(token)) {
      return send(res, 401, { error: { code: 401, message: 'Request had invalid authentication credentials.', status: 'UNAUTHENTICATED' } });
    }
    if (req.path.slice(this.calendarPrefix.length) === '/freeBusy') return this.freeBusy(req, res);
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

  // Busy times (issue 20 item 2): events the attorney made, and freeBusy ------------------------------

  /** An event the attorney made in Google Calendar (not through the API): busy in freeBusy unless cancelled or transparent. Returns its id. */
  addEvent(event: GoogleBusyEvent): string {
    const id = randomUUID().replace(/-/g, '');
    this.events.set(id, { status: 'confirmed', ...event, id, calendarId: event.calendarId ?? 'primary' } as GoogleEvent);
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
}

export class MicrosoftGraphFake extends Recorder implements FakeService {
  readonly graphPrefix: string;
  readonly loginPrefix: string;
  credentials: MicrosoftFakeOptions['credentials'];
  tokenLifetimeSeconds: number;
  readonly issuedTokens: string[] = [];
  private validTokens = new Set<string>();
  readonly events = new Map<string, GraphEvent>();

  constructor(options: MicrosoftFakeOptions = {}) {
    super();
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

  private token(req: RecordedRequest, res: http.ServerResponse) {
    const m = /^\/([^/]+)\/oauth2\/v2\.0\/token$/.exec(req.path.slice(this.loginPrefix.length));
    if (!m || req.method !== 'POST') return send(res, 404, { error: 'not_found' });
    const tenant = decodeURIComponent(m[1]!);
    const form = req.form();
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

  private graph(req: RecordedRequest, res: http.ServerResponse) {
    const token = bearer(req);
    if (!token || !this.validTokens.has(token)) {
      return send(res, 401, { error: { code: 'InvalidAuthenticationToken', message: 'Access token has expired or is not yet valid.' } });
    }
    const view = /^\/users\/([^/]+)(?:\/calendars\/([^/]+))?\/calendarView$/.exec(req.path.slice(this.graphPrefix.length));
    if (view) return this.calendarView(req, res, decodeURIComponent(view[1]!), view[2] ? decodeURIComponent(view[2]) : null);
    const m = /^\/users\/([^/]+)\/events(?:\/([^/]+))?$/.exec(req.path.slice(this.graphPrefix.length));
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

  // Busy times (issue 20 item 2): events the attorney made, and calendarView -------------------------

  /** Events per calendarView page when the request's $top does not ask fewer. */
  calendarViewPageSize = 10;

  /** An event the attorney made in Outlook (not through the API). Returns its id. */
  addEvent(event: GraphBusyEvent): string {
    const id = `AAMkAGfake${randomBytes(16).toString('base64url')}=`;
    this.events.set(id, { showAs: 'busy', isCancelled: false, ...event, id });
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
  settings: { googleCalendarApiBase: string; googleTokenUrl: string; microsoftGraphApiBase: string; microsoftLoginBase: string };
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
      microsoftGraphApiBase: `${server.url}${microsoft.graphPrefix}`,
      microsoftLoginBase: `${server.url}${microsoft.loginPrefix}`,
    },
    webhookUrl: (path = '') => `${server.url}${webhook.prefix}${path}`,
  };
}
