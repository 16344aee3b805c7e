import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiRequest, createQueryClient, getQueryFn, setAccessTokenProvider } from './api-client.ts';

/** A real local HTTP peer that echoes what it got, so the helper is tested over a real fetch. */
let server: Server;
let origin = '';
const seen: { method?: string; url?: string; auth?: string; type?: string; body: string }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      seen.push({ method: req.method, url: req.url, auth: req.headers.authorization, type: req.headers['content-type'], body });
      if (req.url === '/api/fail-json') return void res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":"Bad"}');
      if (req.url === '/api/fail-empty') return void res.writeHead(503, 'Service Unavailable').end();
      if (req.url?.startsWith('/api/admin/secret') && req.headers.authorization !== 'Bearer t0k') return void res.writeHead(401).end('{"error":"Authentication required"}');
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

  it('adds the access token to admin calls only', async () => {
    setAccessTokenProvider(async () => 't0k');
    await apiRequest('GET', '/api/admin/secret');
    expect(seen.at(-1)?.auth).toBe('Bearer t0k');
    await apiRequest('GET', '/api/testimonials');
    expect(seen.at(-1)?.auth).toBeUndefined();
    setAccessTokenProvider(async () => null);
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
