import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiError,
  api,
  apiClient,
  createQueryClient,
  fetchThroughOutages,
  getQueryFn,
  randomKey,
  read,
  setAccessTokenProvider,
  submissionKey,
} from './api-client.ts';

/** A real local HTTP peer that echoes what it got, so the client is tested over a real fetch. */
let server: Server;
let origin = '';
/** What the last fetch was given (credentials are not visible to the peer). */
let lastInit: RequestInit | undefined;
const seen: { method?: string; url?: string; auth?: string; type?: string; key?: string; body: string }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      seen.push({
        method: req.method,
        url: req.url,
        auth: req.headers.authorization,
        type: req.headers['content-type'],
        key: req.headers['idempotency-key'] as string | undefined,
        body,
      });
      // A typed call can only name real routes: the test asks for a failure with this header.
      const answer = req.headers['x-answer'];
      if (answer === 'fail-json') return void res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":"Bad"}');
      if (answer === 'fail-empty') return void res.writeHead(503, 'Service Unavailable').end();
      if (req.url?.startsWith('/api/admin/') && req.headers.authorization !== 'Bearer t0k')
        return void res.writeHead(401).end('{"error":"Authentication required"}');
      if (req.method === 'DELETE') return void res.writeHead(204).end();
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: true, url: req.url }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // Islands call site-relative paths (the browser's `api`); resolve them against the local peer.
  const realFetch = globalThis.fetch;
  globalThis.fetch = ((input: string | URL | Request, init?: RequestInit) => {
    lastInit = init;
    return realFetch(typeof input === 'string' && input.startsWith('/') ? origin + input : input, init);
  }) as typeof fetch;
});

afterAll(() => new Promise<void>((r) => server.close(() => r())));

const contact = { firstName: 'Ann', lastName: 'Lee', email: 'ann@example.com', practiceArea: 'family-law', message: 'Call me' } as const;

describe('the typed client (apiClient, read)', () => {
  const client = () => apiClient(origin);

  it('sends the method, path and JSON body with credentials, and reads the success body', async () => {
    expect(await read(client().contact.$post({ json: contact }))).toEqual({ ok: true, url: '/api/contact' });
    expect(seen.at(-1)).toMatchObject({ method: 'POST', url: '/api/contact', type: 'application/json', body: JSON.stringify(contact) });
    expect(lastInit?.credentials).toBe('include');
  });

  it('reads a 204 as undefined', async () => {
    setAccessTokenProvider(async () => 't0k');
    expect(await read(client().admin.testimonials[':id'].$delete({ param: { id: 'abc' } }))).toBeUndefined();
    expect(seen.at(-1)).toMatchObject({ method: 'DELETE', url: '/api/admin/testimonials/abc' });
    setAccessTokenProvider(async () => null);
  });

  it("throws an ApiError 'status: body' on a non-OK answer, and 'status: statusText' when the body is empty", async () => {
    const failing = (answer: string) => read(client().testimonials.$get(undefined, { headers: { 'x-answer': answer } }));
    const error = await failing('fail-json').catch((err: unknown) => err);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe('400: {"error":"Bad"}');
    expect((error as ApiError).details.error).toBe('Bad');
    await expect(failing('fail-empty')).rejects.toThrow('503: Service Unavailable');
  });

  it('sends an Idempotency-Key when given one, and none otherwise', async () => {
    await read(client().contact.$post({ json: contact }, { headers: { 'Idempotency-Key': 'k-123' } }));
    expect(seen.at(-1)).toMatchObject({ method: 'POST', key: 'k-123', body: JSON.stringify(contact) });
    await read(client().contact.$post({ json: contact }));
    expect(seen.at(-1)?.key).toBeUndefined();
  });

  it('adds the access token to admin calls only', async () => {
    setAccessTokenProvider(async () => 't0k');
    await read(client().admin.session.$get());
    expect(seen.at(-1)).toMatchObject({ url: '/api/admin/session', auth: 'Bearer t0k' });
    await read(client().testimonials.$get());
    expect(seen.at(-1)?.auth).toBeUndefined();
    setAccessTokenProvider(async () => null);
    await expect(read(client().admin.session.$get())).rejects.toThrow(/^401: /);
  });

  it("is the browser's client too: site-relative paths, the same rules", async () => {
    await read(api.contact.$post({ json: contact }, { headers: { 'Idempotency-Key': 'k-456' } }));
    expect(seen.at(-1)).toMatchObject({ method: 'POST', url: '/api/contact', key: 'k-456' });
    expect(lastInit?.credentials).toBe('include');
  });
});

describe('submissionKey (decision 016: one Idempotency-Key per submission)', () => {
  const KEY = /^[A-Za-z0-9_-]{1,255}$/; // what the API accepts

  it('reuses the key when the same body is sent again (a retry), whatever object holds it', () => {
    const submission = submissionKey();
    const first = submission.for({ name: 'Ann', message: 'Hello' });
    expect(first).toMatch(KEY);
    expect(submission.for({ name: 'Ann', message: 'Hello' })).toBe(first);
  });

  it('makes a new key when the visitor changed the form, and after a success', () => {
    const submission = submissionKey();
    const first = submission.for({ name: 'Ann', message: 'Hello' });
    const edited = submission.for({ name: 'Ann', message: 'Hello again' });
    expect(edited).not.toBe(first);
    expect(edited).toMatch(KEY);
    submission.succeeded();
    // The next message, even word for word the same, is a new submission.
    const next = submission.for({ name: 'Ann', message: 'Hello again' });
    expect(next).not.toBe(edited);
    expect(next).not.toBe(first);
  });

  it('keeps one key per form: two forms never share one', () => {
    expect(submissionKey().for({ a: 1 })).not.toBe(submissionKey().for({ a: 1 }));
  });

  it('makes UUIDs without crypto.randomUUID too (a page over plain http on an intranet)', () => {
    const original = crypto.randomUUID;
    try {
      Object.defineProperty(crypto, 'randomUUID', { value: undefined, configurable: true });
      const keys = new Set(Array.from({ length: 100 }, () => randomKey()));
      expect(keys.size).toBe(100);
      for (const k of keys) expect(k).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    } finally {
      Object.defineProperty(crypto, 'randomUUID', { value: original, configurable: true });
    }
  });

  it('sends the same key on a retry after a lost answer, over a real request', async () => {
    const submission = submissionKey();
    const body = contact;
    const send = () => read(apiClient(origin).contact.$post({ json: body }, { headers: { 'Idempotency-Key': submission.for(body) } }));
    await send();
    // The answer never arrived (the visitor saw an error): the form sends the same body again.
    await send();
    const [first, retry] = seen.slice(-2);
    expect(first!.key).toMatch(KEY);
    expect(retry!.key).toBe(first!.key);
  });
});

describe('getQueryFn', () => {
  it('joins the query key into a path', async () => {
    const fn = getQueryFn<{ url: string }>({ on401: 'throw' });
    const data = await fn({ queryKey: ['/api', 'blog-posts', 'a-slug'] } as never);
    expect(data).toEqual({ ok: true, url: '/api/blog-posts/a-slug' });
  });

  it('turns a 401 into null only when asked to', async () => {
    expect(await getQueryFn({ on401: 'returnNull' })({ queryKey: ['/api/admin/secret'] } as never)).toBeNull();
    await expect(getQueryFn({ on401: 'throw' })({ queryKey: ['/api/admin/secret'] } as never)).rejects.toThrow(/^401: /);
  });
});

describe('createQueryClient', () => {
  it('has the SPEC §7 data-fetch defaults', () => {
    const q = createQueryClient().getDefaultOptions().queries!;
    expect(q).toMatchObject({ retry: false, refetchOnWindowFocus: false, staleTime: Infinity, refetchInterval: false, gcTime: 300_000 });
  });
});

describe('fetchThroughOutages (a 503 with Retry-After: the database away for a moment)', () => {
  const answers = (...statuses: [number, string | null][]) => {
    const sent: number[] = [];
    const send = async () => {
      const [status, retryAfter] = statuses[Math.min(sent.length, statuses.length - 1)]!;
      sent.push(status);
      return new Response('{}', { status, headers: retryAfter === null ? {} : { 'Retry-After': retryAfter } });
    };
    return { send, sent };
  };
  const slept: number[] = [];
  const sleep = async (ms: number) => void slept.push(ms);

  it('sends a repeatable request again after the wait, up to twice', async () => {
    const once = answers([503, '2'], [201, null]);
    expect((await fetchThroughOutages(once.send, { repeatable: true, sleep })).status).toBe(201);
    expect(once.sent).toEqual([503, 201]);
    const always = answers([503, '1']);
    expect((await fetchThroughOutages(always.send, { repeatable: true, sleep })).status).toBe(503);
    expect(always.sent).toEqual([503, 503, 503]);
    expect(slept).toEqual([2000, 1000, 1000]);
  });

  it('never repeats a request that is not safe to send twice, nor a 503 without a short Retry-After', async () => {
    const unkeyed = answers([503, '1'], [201, null]);
    expect((await fetchThroughOutages(unkeyed.send, { repeatable: false, sleep })).status).toBe(503);
    for (const retryAfter of [null, '60', 'soon', '-1']) {
      const other = answers([503, retryAfter], [201, null]);
      expect((await fetchThroughOutages(other.send, { repeatable: true, sleep })).status, String(retryAfter)).toBe(503);
      expect(other.sent).toEqual([503]);
    }
  });
});
