/**
 * The reference CDN configuration (deploy/varnish/default.vcl) in a real Varnish, in front
 * of a small origin that answers with the headers of the servers' contract (api/cdn/cache-policy.ts):
 *
 *   public pages and lists  Cache-Control: public, max-age=0, must-revalidate, s-maxage=86400
 *                           Surrogate-Control (and CDN-Cache-Control): max-age=86400, stale-while-revalidate=30, stale-if-error=86400
 *   hashed assets           Cache-Control: public, max-age=31536000, immutable
 *   everything else         no-store, private, or no `public`: never kept
 *   kept responses          Surrogate-Key: <keys, space separated>, Cache-Tag: <keys, commas>, an ETag
 *   purge                   PURGE / with `xkey-purge: <keys>` from an allowed address: 200, `xkey-purged: N`
 *
 * The contract's strings are written out here, not imported: this test checks the VCL against the
 * contract, whatever the server code says. Varnish is required (scripts/bootstrap.sh installs it).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startVarnish, type Varnish } from '../support/varnish.ts';

const SHARED = 'public, max-age=0, must-revalidate, s-maxage=86400';
const CDN_CONTROL = 'max-age=86400, stale-while-revalidate=30, stale-if-error=86400';
const IMMUTABLE = 'public, max-age=31536000, immutable';

interface Route {
  cacheControl: string;
  /** Sent as Surrogate-Control and CDN-Cache-Control; SHARED routes get CDN_CONTROL unless told otherwise. */
  surrogateControl?: string;
  keys?: string[];
  status?: number;
  /** The first this many requests find the connection torn down without an answer (a container that crashed). */
  dropFirst?: number;
}

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
}

/** The containers' stand-in: answers each registered path with its headers and a body that counts the requests. */
async function startOrigin() {
  const routes = new Map<string, Route>();
  const seen: Seen[] = [];
  let healthy = true;
  const server = http.createServer((req, res) => {
    const url = req.url ?? '/';
    const path = url.split('?')[0]!;
    req.resume();
    req.on('end', () => {
      if (path === '/api/health' || path === '/api/health/ready') {
        res
          .writeHead(healthy ? 200 : 503, { 'cache-control': 'no-store', 'content-type': 'application/json' })
          .end(JSON.stringify({ status: healthy ? 'ok' : 'unavailable' }));
        return;
      }
      seen.push({ method: req.method!, url, headers: req.headers });
      const route = routes.get(path);
      if (!route) {
        res.writeHead(404, { 'cache-control': 'no-store', 'content-type': 'text/plain' }).end('Not found');
        return;
      }
      const n = seen.filter((s) => s.url.split('?')[0] === path).length;
      if (n <= (route.dropFirst ?? 0)) {
        req.socket.destroy();
        return;
      }
      const body = Buffer.from(`${req.method} ${url} #${n}\n`);
      const headers: Record<string, string> = {
        'content-type': 'text/plain; charset=utf-8',
        'cache-control': route.cacheControl,
        etag: `"${path.replace(/\W/g, '')}-${n}"`,
        vary: 'accept-encoding',
      };
      const surrogateControl = route.surrogateControl ?? (route.cacheControl === SHARED ? CDN_CONTROL : undefined);
      if (surrogateControl) {
        headers['surrogate-control'] = surrogateControl;
        headers['cdn-cache-control'] = surrogateControl;
      }
      if (route.keys) {
        headers['surrogate-key'] = route.keys.join(' ');
        headers['cache-tag'] = route.keys.join(',');
      }
      // As the site does (api/site/compressed.ts): brotli, else gzip, else the plain body.
      const accepts = String(req.headers['accept-encoding'] ?? '');
      let sent = body;
      if (/\bbr\b/.test(accepts)) {
        sent = brotliCompressSync(body);
        headers['content-encoding'] = 'br';
      } else if (/\bgzip\b/.test(accepts)) {
        sent = gzipSync(body);
        headers['content-encoding'] = 'gzip';
      }
      res.writeHead(route.status ?? 200, headers).end(req.method === 'HEAD' ? undefined : sent);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    /** Registers a path; a unique path per test keeps the tests apart. */
    serve(path: string, route: Route) {
      routes.set(path, route);
      return path;
    },
    /** The requests that reached the origin for `path` (health probes left out). */
    requests: (path: string) => seen.filter((s) => s.url.split('?')[0] === path),
    setHealthy(value: boolean) {
      healthy = value;
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
type Origin = Awaited<ReturnType<typeof startOrigin>>;

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  text: string;
}

/** One request on a fresh connection, body left as sent (no decompression); `localAddress`: the client's address. */
function request(url: string, options: { method?: string; headers?: Record<string, string>; body?: string; localAddress?: string } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: options.method ?? 'GET', headers: options.headers, localAddress: options.localAddress, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        resolve({ status: res.statusCode!, headers: res.headers, body, text: body.toString('utf8') });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

const purge = (cdn: Varnish, keys: string | undefined, localAddress?: string) =>
  request(`${cdn.url}/`, { method: 'PURGE', headers: keys === undefined ? {} : { 'xkey-purge': keys }, localAddress });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the shipped Varnish configuration, in front of an origin that follows the contract', () => {
  let origin: Origin;
  let cdn: Varnish;
  beforeAll(async () => {
    origin = await startOrigin();
    cdn = await startVarnish({ backends: [origin.url] });
  });
  afterAll(async () => {
    await cdn?.stop();
    await origin?.stop();
  });

  const get = (path: string, headers: Record<string, string> = {}) => request(`${cdn.url}${path}`, { headers });

  it('keeps a public response with s-maxage: the second request is a HIT the origin never sees', async () => {
    const path = origin.serve('/about', { cacheControl: SHARED, keys: ['site', 'static'] });
    const before = await cdn.stats();
    const first = await get(path);
    const second = await get(path);
    expect(first.status).toBe(200);
    expect(first.headers['x-cache']).toBe('MISS');
    expect(second.headers['x-cache']).toBe('HIT');
    expect(second.text).toBe(first.text);
    expect(second.text).toBe('GET /about #1\n');
    expect(origin.requests(path)).toHaveLength(1);
    // What the browser gets: the server's Cache-Control (max-age=0: it revalidates), its ETag, an Age.
    expect(second.headers['cache-control']).toBe(SHARED);
    expect(second.headers.etag).toBe(first.headers.etag);
    expect(second.headers.age).toMatch(/^\d+$/);
    const after = await cdn.stats();
    expect(after.hits - before.hits).toBe(1);
    expect(after.misses - before.misses).toBe(1);
    // A revalidation with the ETag: 304 from the cache.
    const revalidated = await get(path, { 'if-none-match': String(second.headers.etag) });
    expect(revalidated.status).toBe(304);
    expect(origin.requests(path)).toHaveLength(1);
  });

  it('keeps hashed assets (public, immutable)', async () => {
    const path = origin.serve('/_astro/app.Bx1c2D3e.js', { cacheControl: IMMUTABLE });
    await get(path);
    const again = await get(path);
    expect(again.headers['x-cache']).toBe('HIT');
    expect(again.headers['cache-control']).toBe(IMMUTABLE);
    expect(origin.requests(path)).toHaveLength(1);
  });

  it('never keeps what is no-store, private, or not marked public, errors included', async () => {
    const paths = [
      origin.serve('/no-store', { cacheControl: 'no-store' }),
      origin.serve('/private', { cacheControl: 'private, max-age=600' }),
      origin.serve('/not-public', { cacheControl: 'max-age=600, s-maxage=600' }),
      origin.serve('/public-but-no-store', { cacheControl: 'public, no-store, s-maxage=600' }),
      origin.serve('/gone', { cacheControl: 'no-store', status: 404 }),
      origin.serve('/broken', { cacheControl: 'no-store', status: 500 }),
    ];
    for (const path of paths) {
      const answers = [await get(path), await get(path), await get(path)];
      expect(
        answers.map((a) => a.headers['x-cache']),
        path,
      ).toEqual(['MISS', 'MISS', 'MISS']);
      expect(
        answers.map((a) => a.text.trim()),
        path,
      ).toEqual([1, 2, 3].map((n) => `GET ${path} #${n}`));
      expect(origin.requests(path), path).toHaveLength(3);
    }
  });

  it('never keeps /admin, /api/admin or /login, even when the backend calls them public', async () => {
    const paths = [
      origin.serve('/admin', { cacheControl: SHARED, keys: ['site'] }),
      origin.serve('/admin/blog-posts', { cacheControl: SHARED, keys: ['site'] }),
      origin.serve('/api/admin/blog-posts', { cacheControl: SHARED, keys: ['site'] }),
      origin.serve('/login', { cacheControl: SHARED, keys: ['site'] }),
    ];
    for (const path of paths) {
      const answers = [await get(path), await get(path)];
      expect(
        answers.map((a) => a.headers['x-cache']),
        path,
      ).toEqual(['MISS', 'MISS']);
      expect(origin.requests(path), path).toHaveLength(2);
    }
    // Spelled otherwise, still never kept.
    for (const path of ['//admin/blog-posts', '/ADMIN/blog-posts', '/api//admin/blog-posts']) {
      await get(path);
      expect((await get(path)).headers['x-cache'], path).toBe('MISS');
    }
  });

  it('sends requests with Authorization to the origin, past a kept copy', async () => {
    const path = origin.serve('/api/blog-posts', { cacheControl: SHARED, keys: ['site', 'posts'] });
    await get(path);
    expect((await get(path)).headers['x-cache']).toBe('HIT');
    const authorized = await get(path, { authorization: 'Bearer a-token' });
    expect(authorized.headers['x-cache']).toBe('MISS');
    expect(authorized.text).toBe('GET /api/blog-posts #2\n');
    expect(origin.requests(path)[1]!.headers.authorization).toBe('Bearer a-token');
  });

  it('strips cookies on cacheable paths: a stray cookie neither reaches the origin nor bypasses the cache', async () => {
    const path = origin.serve('/attorneys', { cacheControl: SHARED, keys: ['site', 'static'] });
    const first = await get(path, { cookie: '_ga=GA1.2.3' });
    const second = await get(path, { cookie: 'other=1' });
    expect([first.headers['x-cache'], second.headers['x-cache']]).toEqual(['MISS', 'HIT']);
    expect(origin.requests(path)).toHaveLength(1);
    expect(origin.requests(path)[0]!.headers.cookie).toBeUndefined();
  });

  it('passes POST and the other writes to the origin, also on a path it keeps', async () => {
    const path = origin.serve('/api/contact', { cacheControl: SHARED, keys: ['site'] });
    await get(path);
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      const answer = await request(`${cdn.url}${path}`, { method, headers: { 'content-type': 'application/json' }, body: '{"a":1}' });
      expect(answer.headers['x-cache'], method).toBe('MISS');
      expect(answer.text, method).toMatch(new RegExp(`^${method} /api/contact #\\d+`));
    }
    expect(origin.requests(path).map((r) => r.method)).toEqual(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
    expect((await get(path)).headers['x-cache']).toBe('HIT');
  });

  it('keeps its keys to itself: no Surrogate-Key, Cache-Tag or xkey reaches a client', async () => {
    const path = origin.serve('/practice-areas', { cacheControl: SHARED, keys: ['site', 'static'] });
    for (const answer of [await get(path), await get(path)]) {
      for (const name of ['surrogate-key', 'cache-tag', 'surrogate-control', 'cdn-cache-control', 'xkey', 'x-firm-swr'])
        expect(answer.headers[name], name).toBeUndefined();
    }
  });

  it('keeps one copy per encoding (br, gzip, none) and gives the origin the encoding asked for', async () => {
    const path = origin.serve('/contact', { cacheControl: SHARED, keys: ['site', 'contact-page'] });
    const br = await get(path, { 'accept-encoding': 'gzip, deflate, br' });
    const gzip = await get(path, { 'accept-encoding': 'gzip, deflate' });
    const plain = await get(path);
    expect([br, gzip, plain].map((a) => a.headers['x-cache'])).toEqual(['MISS', 'MISS', 'MISS']);
    expect([br, gzip, plain].map((a) => a.headers['content-encoding'])).toEqual(['br', 'gzip', undefined]);
    expect(origin.requests(path).map((r) => r.headers['accept-encoding'])).toEqual(['br', 'gzip', undefined]);
    // The same encodings in other words find their copies.
    const again = [
      await get(path, { 'accept-encoding': 'br;q=1.0, gzip;q=0.8' }),
      await get(path, { 'accept-encoding': 'gzip' }),
      await get(path, { 'accept-encoding': 'identity' }),
    ];
    expect(again.map((a) => a.headers['x-cache'])).toEqual(['HIT', 'HIT', 'HIT']);
    expect(again.map((a) => a.headers['content-encoding'])).toEqual(['br', 'gzip', undefined]);
    expect(origin.requests(path)).toHaveLength(3);
    expect(plain.text).toBe('GET /contact #3\n');
    // A purge takes every copy.
    const purged = await purge(cdn, 'contact-page');
    expect(purged.headers['xkey-purged']).toBe('3');
  });

  it('purges exactly the objects that carry a key, answers their number, and keeps the rest', async () => {
    const a = origin.serve('/blog/purge-a', { cacheControl: SHARED, keys: ['purge-site', 'articles', 'post:purge-a'] });
    const b = origin.serve('/blog/purge-b', { cacheControl: SHARED, keys: ['purge-site', 'articles', 'post:purge-b'] });
    const list = origin.serve('/blog/purge-list', { cacheControl: SHARED, keys: ['purge-site', 'posts', 'purge-list'] });
    const other = origin.serve('/purge-other', { cacheControl: SHARED, keys: ['purge-site', 'purge-other'] });
    for (const path of [a, b, list, other]) await get(path);

    const one = await purge(cdn, 'post:purge-a');
    expect(one.status).toBe(200);
    expect(one.headers['xkey-purged']).toBe('1');
    expect(one.text.trim()).toBe('1');
    expect((await get(a)).headers['x-cache']).toBe('MISS');
    expect((await get(a)).headers['x-cache']).toBe('HIT');
    for (const path of [b, list, other]) expect((await get(path)).headers['x-cache'], path).toBe('HIT');

    // Several keys at once, space separated.
    const two = await purge(cdn, 'post:purge-b purge-list');
    expect(two.headers['xkey-purged']).toBe('2');
    const after = await Promise.all([a, b, list, other].map(async (path) => (await get(path)).headers['x-cache']));
    expect(after).toEqual(['HIT', 'MISS', 'MISS', 'HIT']);
    expect(origin.requests(b).map((r) => r.url)).toEqual([b, b]);

    // xkey counts an object once per named key it carries: a count, not a census of distinct objects.
    const overlapping = await purge(cdn, 'purge-site articles');
    expect(overlapping.headers['xkey-purged']).toBe('6'); // all four by `purge-site`, the two articles again by `articles`
    expect(await Promise.all([a, b, list, other].map(async (path) => (await get(path)).headers['x-cache']))).toEqual(['MISS', 'MISS', 'MISS', 'MISS']);

    // A key nothing carries: 200, nothing purged.
    const none = await purge(cdn, 'post:nobody');
    expect([none.status, none.headers['xkey-purged']]).toEqual([200, '0']);
    // Without keys: refused, and nothing reaches the origin.
    expect((await purge(cdn, undefined)).status).toBe(400);
    expect(origin.requests('/').filter((r) => r.method === 'PURGE')).toEqual([]);
  });

  it('refuses PURGE from an address outside the ACL (loopback 127.0.0.2 is not 127.0.0.1)', async () => {
    const path = origin.serve('/acl-kept', { cacheControl: SHARED, keys: ['site', 'acl-kept'] });
    await get(path);
    const refused = await purge(cdn, 'acl-kept', '127.0.0.2');
    expect(refused.status).toBe(403);
    expect(refused.headers['xkey-purged']).toBeUndefined();
    expect((await get(path)).headers['x-cache']).toBe('HIT');
  });

  it('serves a copy past its s-maxage during stale-while-revalidate, refreshing it behind', async () => {
    const path = origin.serve('/swr', { cacheControl: 'public, max-age=0, s-maxage=1, stale-while-revalidate=30', keys: ['swr'] });
    expect((await get(path)).text).toBe('GET /swr #1\n');
    await sleep(1500);
    const stale = await get(path);
    expect(stale.headers['x-cache']).toBe('HIT');
    expect(stale.text).toBe('GET /swr #1\n');
    // The refresh started by that request lands shortly after.
    await expect.poll(async () => (await get(path)).text, { timeout: 5000, interval: 100 }).toBe('GET /swr #2\n');
  });

  it('reads the stale windows from Surrogate-Control, which the browser never sees (Cache-Control says must-revalidate)', async () => {
    const path = origin.serve('/swr-surrogate', {
      cacheControl: 'public, max-age=0, must-revalidate, s-maxage=1',
      surrogateControl: 'max-age=1, stale-while-revalidate=30',
      keys: ['swr'],
    });
    expect((await get(path)).text).toBe('GET /swr-surrogate #1\n');
    await sleep(1500); // past its s-maxage
    const stale = await get(path);
    expect(stale.headers['x-cache']).toBe('HIT');
    expect(stale.text).toBe('GET /swr-surrogate #1\n');
    expect(stale.headers['cache-control']).toBe('public, max-age=0, must-revalidate, s-maxage=1');
    expect(stale.headers['surrogate-control']).toBeUndefined();
    await expect.poll(async () => (await get(path)).text, { timeout: 5000, interval: 100 }).toBe('GET /swr-surrogate #2\n');
  });

  it('does not serve a copy past its stale-while-revalidate window while a container is healthy, whatever stale-if-error says', async () => {
    const path = origin.serve('/sie-healthy', { cacheControl: 'public, max-age=0, s-maxage=1, stale-while-revalidate=1, stale-if-error=600', keys: ['sie'] });
    await get(path);
    await sleep(2500);
    const fresh = await get(path);
    expect(fresh.headers['x-cache']).toBe('MISS');
    expect(fresh.text).toBe('GET /sie-healthy #2\n');
  });
  it('keys the cache on the scheme: a copy filled by a request labelled http never reaches https visitors', async () => {
    const path = origin.serve('/scheme', { cacheControl: SHARED, keys: ['scheme'] });
    const plain = await get(path, { 'x-forwarded-proto': 'http' });
    const secure = await get(path, { 'x-forwarded-proto': 'https' });
    const secureAgain = await get(path, { 'x-forwarded-proto': 'HTTPS' });
    expect([plain.headers['x-cache'], secure.headers['x-cache'], secureAgain.headers['x-cache']]).toEqual(['MISS', 'MISS', 'HIT']);
    // The origin heard exactly "http" or "https", whatever the client sent.
    expect(origin.requests(path).map((r) => r.headers['x-forwarded-proto'])).toEqual(['http', 'https']);
    const bogus = await get(path, { 'x-forwarded-proto': 'javascript' });
    expect(bogus.text).toBe(plain.text);
  });

  it('refuses a body over 64 KB itself, in the words of the API, so no container connection carries it; the POSTs after it go through', async () => {
    const path = origin.serve('/api/contact-big', { cacheControl: 'no-store' });
    // Refused before it is all sent: the client reads the 413, or finds the connection closed under it.
    for (const size of [300 * 1024, 64 * 1024 + 1]) {
      const answer = await request(`${cdn.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: 'x'.repeat(size) }).catch(
        (err: NodeJS.ErrnoException) => err.code ?? 'failed',
      );
      if (typeof answer === 'string') expect(['ECONNRESET', 'EPIPE'], String(size)).toContain(answer);
      else expect([answer.status, JSON.parse(answer.text)], String(size)).toEqual([413, { error: 'Request body is too large (64 KB at most).' }]);
    }
    expect(origin.requests(path)).toHaveLength(0);
    const after = await Promise.all(
      Array.from({ length: 20 }, () => request(`${cdn.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":1}' })),
    );
    expect(after.map((a) => a.status)).toEqual(Array(20).fill(200));
    // A body at the limit still goes through whole.
    const atLimit = await request(`${cdn.url}${path}`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'y'.repeat(64 * 1024) });
    expect(atLimit.status).toBe(200);
  });

  it('sends a request again when its container died before answering: reads and keyed writes, never an unkeyed POST', async () => {
    // Two failures in a row (Varnish itself sends once more when a reused connection fails; the VCL
    // goes on from there, up to three times).
    const read = origin.serve('/crash-read', { cacheControl: 'no-store', dropFirst: 2 });
    expect((await get(read)).status).toBe(200);
    expect(origin.requests(read)).toHaveLength(3);

    const keyed = origin.serve('/api/crash-keyed', { cacheControl: 'no-store', dropFirst: 2 });
    const sent = await request(`${cdn.url}${keyed}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': 'k-1' },
      body: '{"n":1}',
    });
    expect(sent.status).toBe(200);
    expect(origin.requests(keyed)).toHaveLength(3);
    expect(origin.requests(keyed).every((r) => r.headers['content-length'] === '7')).toBe(true);

    const unkeyed = origin.serve('/api/crash-unkeyed', { cacheControl: 'no-store', dropFirst: 2 });
    const refused = await request(`${cdn.url}${unkeyed}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"n":1}' });
    expect(refused.status).toBe(503);
    expect(origin.requests(unkeyed).length).toBeLessThanOrEqual(2);
  });
});

describe('the shipped Varnish configuration with its options', () => {
  let origin: Origin;
  let cdn: Varnish;
  beforeAll(async () => {
    origin = await startOrigin();
    // 127.0.0.2 stands for a container's address the operator adds to the purgers.
    cdn = await startVarnish({ backends: [origin.url], purgers: ['127.0.0.2/32'] });
  });
  afterAll(async () => {
    await cdn?.stop();
    await origin?.stop();
  });

  it('lets an added purger purge', async () => {
    const path = origin.serve('/purgers', { cacheControl: SHARED, keys: ['purgers'] });
    await request(`${cdn.url}${path}`);
    const purged = await purge(cdn, 'purgers', '127.0.0.2');
    expect([purged.status, purged.headers['xkey-purged']]).toEqual([200, '1']);
    expect(await cdn.backendHealth()).toEqual({ firm_1: true });
  });

  it('serves the last copy while no container is healthy (stale-if-error), and fresh ones once one is back', async () => {
    const path = origin.serve('/outage', { cacheControl: 'public, max-age=0, s-maxage=1, stale-while-revalidate=1, stale-if-error=600', keys: ['outage'] });
    await request(`${cdn.url}${path}`);
    origin.setHealthy(false);
    await expect.poll(async () => (await cdn.backendHealth()).firm_1, { timeout: 10_000, interval: 200 }).toBe(false);
    await sleep(2500); // past s-maxage and stale-while-revalidate
    const stale = await request(`${cdn.url}${path}`);
    expect([stale.status, stale.headers['x-cache'], stale.text]).toEqual([200, 'HIT', 'GET /outage #1\n']);
    origin.setHealthy(true);
    await expect.poll(async () => (await cdn.backendHealth()).firm_1, { timeout: 10_000, interval: 200 }).toBe(true);
    await expect.poll(async () => (await request(`${cdn.url}${path}`)).text, { timeout: 5000, interval: 100 }).toMatch(/^GET \/outage #[2-9]\n$/);
  });
});
