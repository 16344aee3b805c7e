/**
 * The public API lists: /api/blog-posts, /api/blog-posts/{slug}, /api/testimonials,
 * /api/external-reviews, /api/external-blog-articles, /api/themes/active, /api/component-visibility, /api/booking-rules. Like the published pages
 * (decision 007), an answer is kept ready to send, named by the keys of what it shows (api/cdn/
 * cache-policy.ts), and dropped the moment a content change touches one of its keys, here or, through
 * the content bus, in another container. So an unchanged list costs no database query, carries an
 * ETag (a browser or CDN revalidating gets a 304), and is kept by the CDN until purged.
 *
 * Only a 200 to a request without a query string is kept, at most MAX_ENTRIES (least recently asked
 * for dropped first): nothing a visitor sends can fill it. An answer computed while a change came in
 * is sent but not kept, since it may predate the change.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Context, MiddlewareHandler } from 'hono';
import { changeKeys, SHARED_CACHE, SITE_KEY, cdnHeaders } from '../cdn/cache-policy.ts';
import type { ContentEvents } from '../content-events.ts';
import { API_HEADERS, type SecuritySettings, securityHeadersFor } from './security-headers.ts';

interface Stored {
  etag: string;
  keys: string[];
  /** The body's bytes, and the headers of a 200 (and of a 304) but the security set: both paths send these. */
  bytes: Buffer<ArrayBuffer>;
  head: Record<string, string>;
}

interface Store {
  entries: Map<string, Stored>;
  /** Bumped by every change: an answer started before a bump is not kept. */
  generation: number;
}

const MAX_ENTRIES = 500;

// One store per app (per its content events): the route files of one createApp share it.
const stores = new WeakMap<object, Store>();

function storeOf(deps: { events: ContentEvents }): Store {
  let store = stores.get(deps.events);
  if (!store) {
    const s: Store = { entries: new Map(), generation: 0 };
    // Subscribed while the app is built, before anything that re-renders pages from these lists
    // (api/server.ts subscribes the site later): listeners run in order, so a page re-rendered for
    // a change never reads a list kept from before it.
    deps.events.subscribe((change) => {
      s.generation++;
      const purged = new Set(changeKeys(change));
      for (const [path, entry] of s.entries) if (purged.has(SITE_KEY) || entry.keys.some((k) => purged.has(k))) s.entries.delete(path);
    });
    stores.set(deps.events, s);
    store = s;
  }
  return store;
}

const matches = (ifNoneMatch: string | undefined, etag: string) =>
  !!ifNoneMatch && ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);

function answer(c: Context, stored: Stored): Response {
  const headers = new Headers(stored.head);
  if (matches(c.req.header('if-none-match'), stored.etag)) return new Response(null, { status: 304, headers });
  return new Response(c.req.method === 'HEAD' ? null : stored.bytes, { status: 200, headers });
}

function keep(body: string, type: string, keys: string[]): Stored {
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
  const head = { 'content-type': type, etag, 'cache-control': SHARED_CACHE, vary: 'accept-encoding', ...cdnHeaders(keys) };
  return { etag, keys, bytes: Buffer.from(body), head };
}

/**
 * The same answers for api/server.ts, before the request reaches Hono: a kept list (or its 304) is
 * written straight to the Node response with the API's security headers, so a list nobody changed
 * costs what a stored page costs. Anything else (a list not kept yet, a query string, a path spelled
 * otherwise than it was kept under, another method) returns false and goes through the app, which
 * keeps it for next time. `begin` is called when the answer is this one's: it logs the request and
 * sets its X-Request-Id, as the app would.
 */
export function keptListResponder(deps: { events: ContentEvents }, settings: SecuritySettings) {
  const store = storeOf(deps);
  return (req: IncomingMessage, res: ServerResponse, begin: () => void): boolean => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    const path = req.url ?? '';
    const hit = store.entries.get(path);
    if (!hit) return false;
    store.entries.delete(path);
    store.entries.set(path, hit);
    begin();
    const headers = { ...hit.head, ...securityHeadersFor(settings, API_HEADERS, req) };
    if (matches(req.headers['if-none-match'], hit.etag)) res.writeHead(304, headers).end();
    else res.writeHead(200, { ...headers, 'content-length': String(hit.bytes.length) }).end(req.method === 'HEAD' ? undefined : hit.bytes);
    return true;
  };
}

/** Middleware for one public GET route: `keys` names what the answer shows (`site` is added). */
export function publicCache(deps: { events: ContentEvents }, keys: (c: Context) => string[]): MiddlewareHandler {
  const store = storeOf(deps);
  return async (c, next) => {
    const url = new URL(c.req.url);
    if ((c.req.method !== 'GET' && c.req.method !== 'HEAD') || url.search) return next();
    const path = url.pathname;
    const hit = store.entries.get(path);
    if (hit) {
      store.entries.delete(path);
      store.entries.set(path, hit);
      c.res = answer(c, hit);
      return;
    }
    const generation = store.generation;
    await next();
    if (c.res.status !== 200) return;
    const body = await c.res.text();
    const stored = keep(body, c.res.headers.get('content-type') ?? 'application/json', [SITE_KEY, ...keys(c)]);
    if (generation === store.generation) {
      store.entries.set(path, stored);
      while (store.entries.size > MAX_ENTRIES) store.entries.delete(store.entries.keys().next().value!);
    }
    c.res = answer(c, stored); // Hono carries over the headers set so far (X-Request-Id)
  };
}
