import { once } from 'node:events';
import { lookup as dnsLookup } from 'node:dns/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkOutboundUrl, createPublicOnlyLookup, isPrivateAddress, OutboundError, safeFetch } from './outbound-fetch.ts';

/** Resolves to the OutboundError a call failed with (and fails the test if it did not fail so). */
async function failureOf(p: Promise<unknown>): Promise<OutboundError> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(OutboundError);
    return err as OutboundError;
  }
  throw new Error('expected the call to fail');
}

function syncFailureOf(f: () => unknown): OutboundError {
  try {
    f();
  } catch (err) {
    expect(err).toBeInstanceOf(OutboundError);
    return err as OutboundError;
  }
  throw new Error('expected the call to fail');
}

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

/** A local peer on 127.0.0.1 with named routes; records what it was asked and which connections closed. */
async function startPeer(routes: Record<string, Handler>) {
  const requests: { path: string; method: string; headers: http.IncomingHttpHeaders; body: string }[] = [];
  const closed: string[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = new URL(req.url ?? '/', 'http://peer').pathname;
      requests.push({ path, method: req.method ?? '', headers: req.headers, body: Buffer.concat(chunks).toString() });
      res.on('close', () => closed.push(path));
      const route = routes[path];
      if (!route) {
        res.writeHead(404).end('no such route');
        return;
      }
      route(req, res);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    origin: `http://127.0.0.1:${port}`,
    requests,
    closed,
    /** Resolves once the server saw the connection for `path` closed (the client gave up on it). */
    async closedFor(path: string) {
      while (!closed.includes(path)) await new Promise((r) => setTimeout(r, 10));
    },
    async stop() {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

const MB = 1024 * 1024;
const gzipBomb = gzipSync(Buffer.alloc(24 * MB)); // about 24 KB on the wire
const brotliBomb = brotliCompressSync(Buffer.alloc(24 * MB));

describe('isPrivateAddress', () => {
  it('refuses loopback, private, link-local, mapped and other special-purpose addresses', () => {
    for (const address of [
      '127.0.0.1',
      '127.255.255.254',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '192.0.2.2',
      '224.0.0.1',
      '255.255.255.255',
      '::1',
      '::',
      '[::1]',
      'fe80::1',
      'fe80::1%eth0',
      'fc00::1',
      'fd12:3456::1',
      'ff02::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '0:0:0:0:0:ffff:7f00:1',
      '::ffff:10.0.0.1',
      '::ffff:a9fe:a9fe',
      '::127.0.0.1',
      '64:ff9b::7f00:1',
      '2002:7f00:1::1',
      'not-an-address',
      '',
    ]) {
      expect(isPrivateAddress(address), address).toBe(true);
    }
  });

  it('lets public addresses through, IPv4-mapped ones included', () => {
    for (const address of [
      '8.8.8.8',
      '93.184.216.34',
      '1.1.1.1',
      '172.32.0.1',
      '2606:4700:4700::1111',
      '2a00:1450:4001::200e',
      '::ffff:8.8.8.8',
      '::ffff:808:808',
    ]) {
      expect(isPrivateAddress(address), address).toBe(false);
    }
  });
});

describe('checkOutboundUrl', () => {
  const privateUrls = [
    'http://127.0.0.1/feed',
    'http://127.1/',
    'http://2130706433/',
    'http://0x7f000001/',
    'http://0177.0.0.1/',
    'http://127.0.0.1./',
    'http://0/',
    'http://[::1]:8080/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::ffff:7f00:1]/',
    'http://10.0.0.5/rss',
    'http://169.254.169.254/latest/meta-data/',
    'https://192.168.0.1:8443/',
    'http://[fe80::1]/',
    'http://[fd00::2]/',
    'http://localhost/',
    'http://LOCALHOST./',
    'http://localhost:4321/api',
    'http://feeds.localhost/',
  ];

  it('refuses private and loopback literals and local names when private networks are not allowed', () => {
    for (const url of privateUrls) expect(syncFailureOf(() => checkOutboundUrl(url, false)).failure, url).toBe('refused-address');
  });

  it('accepts them when private networks are allowed, and public URLs either way', () => {
    for (const url of privateUrls) expect(checkOutboundUrl(url, true).href, url).toBe(new URL(url).href);
    for (const url of ['https://example.com/feed.xml', 'http://93.184.216.34/', 'https://[2606:4700:4700::1111]/']) {
      expect(checkOutboundUrl(url, false).href).toBe(new URL(url).href);
    }
  });

  it('refuses every scheme but http and https, and text that is not a URL', () => {
    for (const url of [
      'file:///etc/passwd',
      'ftp://example.com/feed',
      'gopher://example.com/',
      'data:text/xml,<rss/>',
      'javascript:alert(1)',
      'ws://example.com/',
      'mailto:a@example.com',
      'not a url',
      '/relative/feed',
      '',
    ]) {
      expect(syncFailureOf(() => checkOutboundUrl(url, true)).failure, url).toBe('bad-url');
    }
  });

  it('lets a trusted origin through, and only that origin', () => {
    expect(checkOutboundUrl('http://127.0.0.1:8080/feed', false, ['http://127.0.0.1:8080']).host).toBe('127.0.0.1:8080');
    expect(syncFailureOf(() => checkOutboundUrl('http://127.0.0.1:8081/feed', false, ['http://127.0.0.1:8080'])).failure).toBe('refused-address');
    expect(syncFailureOf(() => checkOutboundUrl('http://localhost:8080/feed', false, ['http://127.0.0.1:8080'])).failure).toBe('refused-address');
  });
});

describe('the lookup hook (names are checked on the addresses they resolve to)', () => {
  type Answer = { address: string; family: number }[];
  const resolverAnswering =
    (answers: Record<string, Answer>) => (name: string, _options: unknown, callback: (err: NodeJS.ErrnoException | null, addresses: Answer) => void) =>
      setImmediate(() =>
        answers[name] ? callback(null, answers[name]) : callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${name}`), { code: 'ENOTFOUND' }), []),
      );
  const lookup = createPublicOnlyLookup(
    resolverAnswering({
      'loopback.example.com': [{ address: '127.0.0.1', family: 4 }],
      'v6-loopback.example.com': [{ address: '::1', family: 6 }],
      'mapped.example.com': [{ address: '::ffff:7f00:1', family: 6 }],
      'metadata.example.com': [{ address: '169.254.169.254', family: 4 }],
      'mixed.example.com': [
        { address: '10.0.0.7', family: 4 },
        { address: '93.184.216.34', family: 4 },
        { address: 'fd00::7', family: 6 },
        { address: '2606:2800:220:1::1', family: 6 },
      ],
      'public.example.com': [{ address: '93.184.216.34', family: 4 }],
    }),
  );
  const resolve = (name: string, all: boolean) =>
    new Promise<{ err: Error | null; address: unknown; family?: number }>((done) =>
      lookup(name, { all } as never, ((err: Error | null, address: unknown, family?: number) => done({ err, address, family })) as never),
    );

  it('refuses a name whose every address is private, in both calling styles', async () => {
    for (const name of [
      'loopback.example.com',
      'v6-loopback.example.com',
      'mapped.example.com',
      'metadata.example.com',
      'localhost',
      'localhost.',
      'feeds.localhost',
    ]) {
      for (const all of [false, true]) {
        const { err } = await resolve(name, all);
        expect(err, name).toBeInstanceOf(OutboundError);
        expect((err as OutboundError).failure).toBe('refused-address');
      }
    }
  });

  it('connects only to the public addresses of a name that has both', async () => {
    expect(await resolve('mixed.example.com', true)).toEqual({
      err: null,
      address: [
        { address: '93.184.216.34', family: 4 },
        { address: '2606:2800:220:1::1', family: 6 },
      ],
      family: undefined,
    });
    expect(await resolve('mixed.example.com', false)).toEqual({ err: null, address: '93.184.216.34', family: 4 });
    expect(await resolve('public.example.com', false)).toEqual({ err: null, address: '93.184.216.34', family: 4 });
  });

  it('passes a resolver failure on as it is', async () => {
    const { err } = await resolve('nowhere.example.com', false);
    expect((err as NodeJS.ErrnoException).code).toBe('ENOTFOUND');
  });
});

describe('safeFetch against local peers', () => {
  let peer: Awaited<ReturnType<typeof startPeer>>;
  let other: Awaited<ReturnType<typeof startPeer>>;
  const drip: Handler = (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/rss+xml' });
    res.write('<rss>');
    const timer = setInterval(() => res.write(' '), 20);
    res.on('close', () => clearInterval(timer));
  };

  beforeAll(async () => {
    other = await startPeer({
      '/echo': (req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ method: req.method, headers: req.headers })),
    });
    peer = await startPeer({
      '/ok': (_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('hello'),
      '/json': (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"items":[1,2]}'),
      '/echo': (req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ method: req.method, headers: req.headers })),
      '/status-500': (_req, res) => res.writeHead(500).end('broken'),
      '/latin1': (_req, res) => res.writeHead(200, { 'content-type': 'text/xml; charset=ISO-8859-1' }).end(Buffer.from([0x43, 0x61, 0x66, 0xe9])),
      '/gzip': (_req, res) => res.writeHead(200, { 'content-encoding': 'gzip' }).end(gzipSync('compressed hello')),
      '/never': () => {
        /* accepts, never answers */
      },
      '/drip': drip,
      '/huge': (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/plain' });
        const chunk = Buffer.alloc(64 * 1024, 'x');
        let sent = 0;
        const more = () => {
          while (sent < 8 * MB) {
            sent += chunk.length;
            if (!res.write(chunk)) return void res.once('drain', more);
          }
          res.end();
        };
        more();
      },
      '/huge-declared': (_req, res) => {
        res.writeHead(200, { 'content-length': String(64 * MB) });
        res.write('x');
      },
      '/gzip-bomb': (_req, res) => res.writeHead(200, { 'content-encoding': 'gzip', 'content-length': String(gzipBomb.length) }).end(gzipBomb),
      '/brotli-bomb': (_req, res) => res.writeHead(200, { 'content-encoding': 'br' }).end(brotliBomb),
      '/bad-gzip': (_req, res) => res.writeHead(200, { 'content-encoding': 'gzip' }).end('this is not gzip'),
      '/cut-short': (_req, res) => {
        res.writeHead(200, { 'content-length': '1000' });
        res.write('only part of it');
        setImmediate(() => res.socket?.destroy());
      },
      '/to-ok': (_req, res) => res.writeHead(302, { location: '/ok' }).end(),
      '/loop': (_req, res) => res.writeHead(302, { location: '/loop' }).end(),
      '/to-file': (_req, res) => res.writeHead(302, { location: 'file:///etc/passwd' }).end(),
      '/to-metadata': (_req, res) => res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end(),
      '/to-loopback-v6': (_req, res) => res.writeHead(307, { location: `http://[::1]:${other.port}/echo` }).end(),
      '/to-localhost': (_req, res) => res.writeHead(302, { location: `http://localhost:${other.port}/echo` }).end(),
      '/to-other': (_req, res) => res.writeHead(302, { location: `${other.origin}/echo` }).end(),
      '/to-hostname': (_req, res) => res.writeHead(302, { location: `http://${hostname()}:${other.port}/echo` }).end(),
      '/to-echo-303': (_req, res) => res.writeHead(303, { location: '/echo' }).end(),
      '/to-echo-307': (_req, res) => res.writeHead(307, { location: '/echo' }).end(),
    });
  });

  afterAll(async () => {
    await peer?.stop();
    await other?.stop();
  });

  const allowed = { allowPrivateNetworks: true } as const;

  it('fetches a body, with status, headers, final URL, text and JSON', async () => {
    const res = await safeFetch(`${peer.origin}/json`, allowed);
    expect(res).toMatchObject({ status: 200, ok: true, url: `${peer.origin}/json` });
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.json()).toEqual({ items: [1, 2] });
    const broken = await safeFetch(`${peer.origin}/status-500`, allowed);
    expect(broken).toMatchObject({ status: 500, ok: false });
    expect(broken.text()).toBe('broken');
  });

  it('decodes the charset the content-type names, and gzip', async () => {
    expect((await safeFetch(`${peer.origin}/latin1`, allowed)).text()).toBe('Café');
    expect((await safeFetch(`${peer.origin}/gzip`, allowed)).text()).toBe('compressed hello');
  });

  it('refuses a loopback literal without connecting when private networks are not allowed', async () => {
    const before = peer.requests.length;
    for (const url of [
      `${peer.origin}/ok`,
      `http://localhost:${peer.port}/ok`,
      `http://localhost.:${peer.port}/ok`,
      `http://[::ffff:127.0.0.1]:${peer.port}/ok`,
      `http://127.1:${peer.port}/ok`,
    ]) {
      expect((await failureOf(safeFetch(url, { allowPrivateNetworks: false }))).failure, url).toBe('refused-address');
    }
    expect(peer.requests.length).toBe(before);
  });

  it('refuses a name that resolves to a private address (checked on connect), without reaching the peer', async () => {
    // The machine's own name resolves (through the system resolver, /etc/hosts) to a loopback or
    // private address of this machine; not a literal, so only the lookup hook can refuse it.
    const name = hostname();
    const addresses = await dnsLookup(name, { all: true });
    expect(addresses.length, `${name} should resolve here`).toBeGreaterThan(0);
    expect(
      addresses.every((a) => isPrivateAddress(a.address)),
      `${name} resolves to ${JSON.stringify(addresses)}`,
    ).toBe(true);
    const before = other.requests.length;
    const err = await failureOf(safeFetch(`http://${name}:${other.port}/echo`, { allowPrivateNetworks: false }));
    expect(err.failure).toBe('refused-address');
    expect(err.message).toContain(name);
    expect(other.requests.length).toBe(before);
  });

  it('refuses non-http schemes', async () => {
    for (const url of ['file:///etc/passwd', 'ftp://127.0.0.1/', 'data:text/plain,hi', 'javascript:alert(1)']) {
      expect((await failureOf(safeFetch(url, allowed))).failure, url).toBe('bad-url');
    }
  });

  it('follows redirects, a few at most', async () => {
    const res = await safeFetch(`${peer.origin}/to-ok`, allowed);
    expect(res).toMatchObject({ status: 200, url: `${peer.origin}/ok` });
    expect(res.text()).toBe('hello');
    expect((await failureOf(safeFetch(`${peer.origin}/loop`, allowed))).failure).toBe('too-many-redirects');
    const unfollowed = await safeFetch(`${peer.origin}/to-ok`, { ...allowed, maxRedirects: 0 });
    expect(unfollowed).toMatchObject({ status: 302, headers: expect.objectContaining({ location: '/ok' }) });
  });

  it('checks every redirect: no other scheme, and no private address when a permitted peer redirects there', async () => {
    expect((await failureOf(safeFetch(`${peer.origin}/to-file`, allowed))).failure).toBe('bad-url');
    // The peer itself is trusted (it is on loopback, as every test peer is); where it sends us is not.
    const trusted = { allowPrivateNetworks: false, trustedOrigins: [peer.origin] };
    expect((await safeFetch(`${peer.origin}/to-ok`, trusted)).text()).toBe('hello');
    const before = other.requests.length;
    for (const path of ['/to-other', '/to-localhost', '/to-loopback-v6', '/to-metadata', '/to-hostname']) {
      expect((await failureOf(safeFetch(`${peer.origin}${path}`, trusted))).failure, path).toBe('refused-address');
    }
    expect(other.requests.length).toBe(before);
  });

  it('drops credentials on a redirect to another origin, and the body when a 303 turns the request into a GET', async () => {
    const res = await safeFetch(`${peer.origin}/to-other`, {
      ...allowed,
      headers: { Authorization: 'Bearer secret-token-1234', Cookie: 'sid=1', 'X-API-Key': 'k-1234', 'X-Auth-Token': 't-1', 'X-Feed': 'kept' },
    });
    const seen = res.json<{ headers: Record<string, string> }>().headers;
    expect(seen.authorization).toBeUndefined();
    expect(seen.cookie).toBeUndefined();
    expect(seen['x-api-key']).toBeUndefined();
    expect(seen['x-auth-token']).toBeUndefined();
    expect(seen['x-feed']).toBe('kept');
    const same = await safeFetch(`${peer.origin}/to-echo-307`, {
      ...allowed,
      method: 'POST',
      body: '{"a":1}',
      headers: { authorization: 'Bearer same-origin', 'x-api-key': 'k-1234', 'content-type': 'application/json' },
    });
    expect(same.json()).toMatchObject({
      method: 'POST',
      headers: { authorization: 'Bearer same-origin', 'x-api-key': 'k-1234', 'content-type': 'application/json' },
    });
    expect(peer.requests.at(-1)).toMatchObject({ path: '/echo', method: 'POST', body: '{"a":1}' });
    const seeOther = await safeFetch(`${peer.origin}/to-echo-303`, {
      ...allowed,
      method: 'POST',
      body: '{"a":1}',
      headers: { 'content-type': 'application/json' },
    });
    expect(seeOther.json()).toMatchObject({ method: 'GET' });
    expect(seeOther.json<{ headers: Record<string, string> }>().headers['content-type']).toBeUndefined();
    expect(peer.requests.at(-1)).toMatchObject({ path: '/echo', method: 'GET', body: '' });
  });

  it('gives up on a peer that never answers, and hangs up', async () => {
    expect((await failureOf(safeFetch(`${peer.origin}/never`, { ...allowed, timeoutMs: 300 }))).failure).toBe('timeout');
    await peer.closedFor('/never');
  });

  it('gives up on a peer that drips its answer, however steadily it drips', async () => {
    const err = await failureOf(safeFetch(`${peer.origin}/drip`, { ...allowed, timeoutMs: 300 }));
    expect(err.failure).toBe('timeout');
    expect(err.message).toContain('127.0.0.1');
    await peer.closedFor('/drip');
  });

  it('stops reading past the size cap, declared or not, and hangs up', async () => {
    expect((await failureOf(safeFetch(`${peer.origin}/huge`, { ...allowed, maxBytes: MB }))).failure).toBe('too-large');
    await peer.closedFor('/huge');
    expect((await failureOf(safeFetch(`${peer.origin}/huge-declared`, { ...allowed, maxBytes: MB }))).failure).toBe('too-large');
    await peer.closedFor('/huge-declared');
    // The default cap (2 MB) applies when none is given.
    expect((await failureOf(safeFetch(`${peer.origin}/huge`, allowed))).failure).toBe('too-large');
  });

  it('caps the decompressed size: a gzip or brotli bomb stops at the cap', async () => {
    for (const path of ['/gzip-bomb', '/brotli-bomb']) {
      const err = await failureOf(safeFetch(`${peer.origin}${path}`, { ...allowed, maxBytes: MB }));
      expect(err.failure, path).toBe('too-large');
    }
  });

  it('reports a broken answer as a network failure', async () => {
    expect((await failureOf(safeFetch(`${peer.origin}/bad-gzip`, allowed))).failure).toBe('network');
    expect((await failureOf(safeFetch(`${peer.origin}/cut-short`, allowed))).failure).toBe('network');
    const closed = await startPeer({});
    const port = closed.port;
    await closed.stop();
    expect((await failureOf(safeFetch(`http://127.0.0.1:${port}/`, allowed))).failure).toBe('network');
  });

  it('refuses header values that cannot be sent, as an OutboundError', async () => {
    expect((await failureOf(safeFetch(`${peer.origin}/ok`, { ...allowed, headers: { 'x-bad': 'line\nbreak' } }))).failure).toBe('bad-url');
  });
});
