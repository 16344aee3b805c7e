import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiRequest, createQueryClient, getQueryFn, randomKey, setAccessTokenProvider, submissionKey } from './api-client.ts';

/** A real local HTTP peer that echoes what it got, so the helper is tested over a real fetch. */
let server: Server;
let origin = '';
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
      if (req.url === '/api/fail-json') return void res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":"Bad"}');
      if (req.url === '/api/fail-empty') return void res.writeHead(503, 'Service Unavailable').end();
      if (req.url?.startsWith('/api/admin/secret') && req.headers.authorization !== 'Bearer t0k')
        return void res.writeHead(401).end('{"error":"Authentication required"}');
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: true, url: req.url }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // The helper takes site-relative paths, as islands use it; resolve them against the local peer.
  const realFetch = globalThis.fetch;
  globalThis.fetch = ((input: string | URL | Request, init?: RequestInit) =>
    realFetch(typeof input === 'string' && input.startsWith('/') ? origin + input : input, init)) as typeof fetch;
});

afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe('apiRequest', () => {
  it('sends the method, path and JSON body', async () => {
    const res = await apiRequest('POST', '/api/contact', { a: 1 });
    expect(await res.json()).toEqual({ ok: true, url: '/api/contact' });
    expect(seen.at(-1)).toMatchObject({ method: 'POST', url: '/api/contact', type: 'application/json', body: '{"a":1}' });
  });

  it("throws 'status: body' on a non-OK answer, and 'status: statusText' when the body is empty", async () => {
    await expect(apiRequest('GET', '/api/fail-json')).rejects.toThrow('400: {"error":"Bad"}');
    await expect(apiRequest('GET', '/api/fail-empty')).rejects.toThrow('503: Service Unavailable');
  });

  it('sends an Idempotency-Key when given one, and none otherwise', async () => {
    await apiRequest('POST', '/api/contact', { a: 1 }, { idempotencyKey: 'k-123' });
    expect(seen.at(-1)).toMatchObject({ method: 'POST', key: 'k-123', body: '{"a":1}' });
    await apiRequest('POST', '/api/contact', { a: 1 });
    expect(seen.at(-1)?.key).toBeUndefined();
  });

  it('adds the access token to admin calls only', async () => {
    setAccessTokenProvider(async () => 't0k');
    await apiRequest('GET', '/api/admin/secret');
    expect(seen.at(-1)?.auth).toBe('Bearer t0k');
    await apiRequest('GET', '/api/testimonials');
    expect(seen.at(-1)?.auth).toBeUndefined();
    setAccessTokenProvider(async () => null);
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
    const body = { firstName: 'Ann', message: 'Call me' };
    await apiRequest('POST', '/api/contact', body, { idempotencyKey: submission.for(body) });
    // The answer never arrived (the visitor saw an error): the form sends the same body again.
    await apiRequest('POST', '/api/contact', body, { idempotencyKey: submission.for(body) });
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
