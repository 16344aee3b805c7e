/**
 * The purge adapters against stand-ins that speak each CDN's purge API (Varnish xkey, Fastly, Cloudflare,
 * CloudFront through the AWS SDK): the request each sends, batching, retries after a failure, and
 * giving up (logged) without throwing. The real Varnish is exercised by tests/integration/varnish-vcl
 * and the multi-container suite.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../logger.ts';
import { createCdnPurger } from './cdn-purge.ts';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** A stand-in that answers each request with the next of `answers` (the last repeats). */
async function standIn(answers: { status: number; body?: string; type?: string }[]): Promise<{ base: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      const answer = answers[Math.min(seen.length - 1, answers.length - 1)]!;
      res.writeHead(answer.status, { 'content-type': answer.type ?? 'application/json' }).end(answer.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { base: `http://127.0.0.1:${(server!.address() as AddressInfo).port}`, seen };
}

function logs() {
  const lines: { level: string; msg: string }[] = [];
  const log = createLogger({ write: (line) => lines.push(JSON.parse(line) as { level: string; msg: string }) });
  return { log, lines };
}

describe('varnish', () => {
  it('sends PURGE with the keys of the change, as tokens, to each Varnish', async () => {
    const { base, seen } = await standIn([{ status: 200 }]);
    const { log } = logs();
    await createCdnPurger({ kind: 'varnish', urls: [base, `${base}/second`] }, { log, settleMs: 60_000 }).purge({
      topic: 'blog-posts',
      keys: ['a-b', 'odd slug'],
    });
    expect(seen.map((s) => [s.method, s.url, s.headers['xkey-purge']])).toEqual([
      ['PURGE', '/', 'posts post:a-b post:odd%20slug'],
      ['PURGE', '/second', 'posts post:a-b post:odd%20slug'],
    ]);
  });

  it('sends each purge again after the settle time, the changes of that time together', async () => {
    const { base, seen } = await standIn([{ status: 200 }]);
    const { log } = logs();
    // Long enough that both purges come within it on a loaded machine (at 50 ms, one CI run's did not).
    const purger = createCdnPurger({ kind: 'varnish', urls: [base] }, { log, settleMs: 500 });
    await purger.purge({ topic: 'themes' });
    await purger.purge({ topic: 'testimonials' });
    expect(seen.map((s) => s.headers['xkey-purge'])).toEqual(['theme', 'testimonials']);
    await expect.poll(() => seen.length, { timeout: 5_000 }).toBe(3);
    expect(seen[2]!.headers['xkey-purge']).toBe('theme testimonials');
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(seen).toHaveLength(3); // once again, not forever
  });

  it('stop() sends the second purges still waiting at once', async () => {
    const { base, seen } = await standIn([{ status: 200 }]);
    const { log } = logs();
    const purger = createCdnPurger({ kind: 'varnish', urls: [base] }, { log, settleMs: 60_000 });
    await purger.purge({ topic: 'blog-posts', keys: ['a'] });
    await purger.stop();
    expect(seen.map((s) => s.headers['xkey-purge'])).toEqual(['posts post:a', 'posts post:a']);
  });

  it('retries a refused purge, then succeeds', async () => {
    const { base, seen } = await standIn([{ status: 503 }, { status: 200 }]);
    const { log, lines } = logs();
    await createCdnPurger({ kind: 'varnish', urls: [base] }, { log, retryDelaysMs: [10], settleMs: 60_000 }).purge({ topic: 'themes' });
    expect(seen.map((s) => s.headers['xkey-purge'])).toEqual(['theme', 'theme']);
    expect(lines.map((l) => l.msg)).toEqual(['cdn purge failed: retrying', 'cdn purged']);
  });

  it('gives up after the retries with an error in the log, without throwing', async () => {
    const { base, seen } = await standIn([{ status: 405, body: 'Not allowed' }]);
    const { log, lines } = logs();
    await expect(
      createCdnPurger({ kind: 'varnish', urls: [base] }, { log, retryDelaysMs: [5, 5], settleMs: 60_000 }).purge({ topic: 'site' }),
    ).resolves.toBeUndefined();
    expect(seen).toHaveLength(3);
    expect(lines.at(-1)).toMatchObject({ level: 'error', msg: 'cdn purge failed: the CDN may show the old content until it expires' });
    expect(JSON.stringify(lines.at(-1))).toContain('HTTP 405: Not allowed');
  });
});

describe('fastly', () => {
  it('POSTs the surrogate keys with the API token, 256 at a time', async () => {
    const { base, seen } = await standIn([{ status: 200, body: '{}' }]);
    const { log } = logs();
    const slugs = Array.from({ length: 300 }, (_, i) => `s${i}`);
    await createCdnPurger({ kind: 'fastly', serviceId: 'SVC123', token: 'fastly-token', apiBase: base }, { log, settleMs: 60_000 }).purge({
      topic: 'blog-posts',
      keys: slugs,
    });
    expect(seen.map((s) => [s.method, s.url, s.headers['fastly-key']])).toEqual([
      ['POST', '/service/SVC123/purge', 'fastly-token'],
      ['POST', '/service/SVC123/purge', 'fastly-token'],
    ]);
    const batches = seen.map((s) => (JSON.parse(s.body) as { surrogate_keys: string[] }).surrogate_keys);
    expect(batches.map((b) => b.length)).toEqual([256, 45]);
    expect(batches.flat()).toEqual(['posts', ...slugs.map((s) => `post:${s}`)]);
  });
});

describe('cloudflare', () => {
  it('POSTs the cache tags with the bearer token, 30 at a time', async () => {
    const { base, seen } = await standIn([{ status: 200, body: JSON.stringify({ success: true, errors: [] }) }]);
    const { log } = logs();
    await createCdnPurger({ kind: 'cloudflare', zoneId: 'ZONE9', token: 'cf-token', apiBase: base }, { log, settleMs: 60_000 }).purge({
      topic: 'blog-posts',
      keys: Array.from({ length: 40 }, (_, i) => `p${i}`),
    });
    expect(seen.map((s) => [s.url, s.headers.authorization])).toEqual([
      ['/zones/ZONE9/purge_cache', 'Bearer cf-token'],
      ['/zones/ZONE9/purge_cache', 'Bearer cf-token'],
    ]);
    expect(seen.map((s) => (JSON.parse(s.body) as { tags: string[] }).tags.length)).toEqual([30, 11]);
  });

  it('treats success: false as a failure', async () => {
    const { base } = await standIn([{ status: 200, body: JSON.stringify({ success: false, errors: [{ message: 'Invalid tag' }] }) }]);
    const { log, lines } = logs();
    await createCdnPurger({ kind: 'cloudflare', zoneId: 'Z', token: 't', apiBase: base }, { log, retryDelaysMs: [], settleMs: 60_000 }).purge({
      topic: 'themes',
    });
    expect(lines.at(-1)).toMatchObject({ level: 'error' });
    expect(JSON.stringify(lines.at(-1))).toContain('Invalid tag');
  });
});

describe('cloudfront', () => {
  it('creates an invalidation of the paths the change altered, through the AWS SDK', async () => {
    const xml = `<?xml version="1.0"?><Invalidation xmlns="http://cloudfront.amazonaws.com/doc/2020-05-31/"><Id>I123</Id><Status>InProgress</Status><CreateTime>2026-11-24T00:00:00Z</CreateTime><InvalidationBatch><Paths><Quantity>0</Quantity></Paths><CallerReference>x</CallerReference></InvalidationBatch></Invalidation>`;
    const { base, seen } = await standIn([{ status: 201, body: xml, type: 'text/xml' }]);
    const { log, lines } = logs();
    await createCdnPurger(
      {
        kind: 'cloudfront',
        distributionId: 'E2EXAMPLE',
        region: 'us-east-1',
        endpoint: base,
        credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' },
      },
      { log, retryDelaysMs: [], settleMs: 60_000 },
    ).purge({ topic: 'testimonials' });
    expect(lines.at(-1)).toMatchObject({ msg: 'cdn purged' });
    expect(seen).toHaveLength(1);
    expect(seen[0]!.method).toBe('POST');
    expect(seen[0]!.url).toBe('/2020-05-31/distribution/E2EXAMPLE/invalidation');
    expect(seen[0]!.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\//);
    const paths = [...seen[0]!.body.matchAll(/<Path>([^<]*)<\/Path>/g)].map((m) => m[1]);
    expect(paths).toEqual(['/', '/api/testimonials']);
    expect(seen[0]!.body).toContain('<Quantity>2</Quantity>');
  });
});

it("'none' sends nothing", async () => {
  const { log, lines } = logs();
  await createCdnPurger({ kind: 'none' }, { log }).purge({ topic: 'site' });
  expect(lines).toEqual([]);
});
