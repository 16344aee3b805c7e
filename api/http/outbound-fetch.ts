/**
 * Every request the server makes to an address an admin typed (feeds, webhooks, calendar and mail
 * APIs) goes through here (docs/decisions/010). It bounds what a slow, huge or hostile peer
 * can do: one deadline for the whole exchange (a peer that never answers, or drips a byte at a time,
 * is cut off), a cap on the body after decompression (a gzip bomb stops at the cap), a few redirects
 * at most, each one checked again, http(s) only. And unless `allowPrivateNetworks` is set (tests, a
 * firm's own intranet), it refuses loopback, private, link-local and other internal addresses:
 * literals in the URL at once, and names on the address actually connected to (a lookup hook), so a
 * name that resolves to 127.0.0.1, or changes between check and use, is refused too.
 */
import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP } from 'node:net';
import type { LookupFunction } from 'node:net';
import type { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { isSecretKey } from '../crypto/secret-masking.ts';

export interface SafeFetchOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /** The whole exchange, connection to last byte, redirects included. Default 10 s. */
  timeoutMs?: number;
  /** The body, after decompression. Default 2 MB. */
  maxBytes?: number;
  /** Default 3; 0 returns the redirect itself. */
  maxRedirects?: number;
  /** Allow loopback and private addresses (tests; a firm's intranet). */
  allowPrivateNetworks: boolean;
  /**
   * Origins (`http://10.0.0.5:8080`) that may be reached even when private addresses are refused: one
   * known intranet peer without opening every private address. Where they redirect is checked as
   * usual. (The tests use it to prove that a permitted peer cannot redirect into the private network.)
   */
  trustedOrigins?: string[];
}

export interface SafeResponse {
  status: number;
  ok: boolean;
  /** Lower-case names. */
  headers: Record<string, string>;
  /** The URL answered, after redirects. */
  url: string;
  body: Buffer;
  /** The body decoded with the charset the content-type names (UTF-8 when none or unknown). */
  text(): string;
  json<T = unknown>(): T;
}

export type OutboundFailure = 'bad-url' | 'refused-address' | 'timeout' | 'too-large' | 'too-many-redirects' | 'network';

export class OutboundError extends Error {
  readonly failure: OutboundFailure;
  constructor(failure: OutboundFailure, message: string) {
    super(message);
    this.name = 'OutboundError';
    this.failure = failure;
  }
}

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_MAX_BYTES = 2 * 1024 * 1024;
const DEFAULT_MAX_REDIRECTS = 3;

/** IANA special-purpose ranges (RFC 6890 and successors): nothing on them is "the internet". */
const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata (169.254.169.254)
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const)
  blocked.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 96], // unspecified, loopback (::1) and the deprecated IPv4-compatible form (::127.0.0.1)
  ['64:ff9b::', 96], // NAT64: may reach any IPv4 address, private ones included
  ['64:ff9b:1::', 48], // local-use NAT64
  ['100::', 64], // discard
  ['2001::', 32], // Teredo (embeds an IPv4 address)
  ['2001:10::', 28], // ORCHID
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4 (embeds an IPv4 address)
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const)
  blocked.addSubnet(net, prefix, 'ipv6');

/** The IPv4 address inside an IPv4-mapped IPv6 one (::ffff:127.0.0.1, ::ffff:7f00:1), or null. */
function mappedIPv4(address: string): string | null {
  const dotted = /^(?:0{0,4}:){0,5}:?ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (dotted) return dotted[1]!;
  const hex = /^(?:0{0,4}:){0,5}:?ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (!hex) return null;
  const hi = parseInt(hex[1]!, 16);
  const lo = parseInt(hex[2]!, 16);
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

/** True for addresses that must not be reached from the internet-facing server. */
export function isPrivateAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, ''); // brackets, zone id (fe80::1%eth0)
  const family = isIP(bare);
  if (family === 4) return blocked.check(bare, 'ipv4');
  if (family === 6) {
    const v4 = mappedIPv4(bare);
    if (v4) return blocked.check(v4, 'ipv4');
    return blocked.check(bare, 'ipv6');
  }
  return true; // not an address at all: refuse
}

/** Names that always mean this machine (RFC 6761), whatever DNS says. */
function isLocalName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.+$/, '');
  return name === 'localhost' || name.endsWith('.localhost') || name === 'localhost.localdomain';
}

/** A host the internet cannot reach this server by: a loopback name, or a private or loopback address. */
export function isLoopbackOrPrivateHost(hostname: string): boolean {
  const bare = hostname.replace(/^\[|\]$/g, '');
  return isLocalName(bare) || (isIP(bare) !== 0 && isPrivateAddress(bare));
}

const refusedMessage = (host: string) => `${host} is a private or loopback address; outbound requests may only go to public internet addresses`;

type Resolver = (hostname: string, options: LookupAllOptions, callback: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void) => void;

/**
 * A socket lookup that resolves the name (with `resolve`, the system resolver by default) and keeps
 * only public addresses: the connection can only go to an address that passed the check. Exported
 * so the rule can be tested with any answer a resolver might give.
 */
export function createPublicOnlyLookup(resolve: Resolver = dnsLookup as unknown as Resolver): LookupFunction {
  return (hostname, options, callback) => {
    const done = callback as unknown as (err: Error | null, address: string | LookupAddress[], family?: number) => void;
    const wantsAll = Boolean((options as { all?: boolean }).all);
    if (isLocalName(hostname)) return process.nextTick(() => done(new OutboundError('refused-address', refusedMessage(hostname)), wantsAll ? [] : '', 4));
    resolve(hostname, { ...(options as object), all: true }, (err, addresses) => {
      if (err) return done(err, wantsAll ? [] : '', 4);
      const allowed = (addresses ?? []).filter((a) => !isPrivateAddress(a.address));
      if (!allowed.length) return done(new OutboundError('refused-address', refusedMessage(hostname)), wantsAll ? [] : '', 4);
      if (wantsAll) return done(null, allowed);
      done(null, allowed[0]!.address, allowed[0]!.family);
    });
  };
}

const publicOnlyLookup = createPublicOnlyLookup();

/** The URL, checked: http(s) only, and no private address literal or local name unless allowed. */
export function checkOutboundUrl(raw: string, allowPrivateNetworks: boolean, trustedOrigins: readonly string[] = []): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new OutboundError('bad-url', `Not a valid URL: ${String(raw).slice(0, 200)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new OutboundError('bad-url', `Only http and https URLs can be fetched, not ${url.protocol}`);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!host) throw new OutboundError('bad-url', 'The URL has no host');
  if (!allowPrivateNetworks && !isTrusted(url, trustedOrigins) && (isIP(host) ? isPrivateAddress(host) : isLocalName(host))) {
    throw new OutboundError('refused-address', refusedMessage(host));
  }
  return url;
}

function isTrusted(url: URL, trustedOrigins: readonly string[]): boolean {
  if (!trustedOrigins.length) return false;
  return trustedOrigins.some((origin) => {
    try {
      return new URL(origin).origin === url.origin;
    } catch {
      return false;
    }
  });
}

/**
 * Headers that carry credentials never follow a redirect to another origin: Authorization and
 * cookies (as in fetch), and any secret-looking one (X-API-Key, X-Auth-Token...).
 */
const credentialHeaders = new Set(['authorization', 'proxy-authorization', 'cookie']);
const isCredentialHeader = (name: string) => credentialHeaders.has(name) || isSecretKey(name);
const bodyHeaders = new Set(['content-type', 'content-length', 'content-encoding', 'content-language', 'content-location']);

export async function safeFetch(rawUrl: string, options: SafeFetchOptions): Promise<SafeResponse> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const maxRedirects = options.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  const deadline = Date.now() + timeoutMs;
  const trusted = options.trustedOrigins ?? [];
  let url = checkOutboundUrl(rawUrl, options.allowPrivateNetworks, trusted);
  let method = (options.method ?? 'GET').toUpperCase();
  let body = options.body;
  let headers = Object.fromEntries(Object.entries(options.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
  for (let hop = 0; ; hop++) {
    const response = await requestOnce(url, {
      method,
      body,
      headers,
      deadline,
      timeoutMs,
      maxBytes,
      allowPrivateNetworks: options.allowPrivateNetworks || isTrusted(url, trusted),
    });
    const location = response.headers.location;
    if (response.status >= 300 && response.status < 400 && response.status !== 304 && location && maxRedirects > 0) {
      if (hop >= maxRedirects) throw new OutboundError('too-many-redirects', `More than ${maxRedirects} redirects from ${url.host}`);
      let next: URL;
      try {
        next = new URL(location, url);
      } catch {
        throw new OutboundError('bad-url', `${url.host} redirected to an invalid URL`);
      }
      next = checkOutboundUrl(next.href, options.allowPrivateNetworks, trusted);
      if (next.origin !== url.origin) headers = Object.fromEntries(Object.entries(headers).filter(([k]) => !isCredentialHeader(k)));
      if (response.status === 303 || ((response.status === 301 || response.status === 302) && method === 'POST')) {
        if (method !== 'HEAD') method = 'GET';
        body = undefined;
        headers = Object.fromEntries(Object.entries(headers).filter(([k]) => !bodyHeaders.has(k)));
      }
      url = next;
      continue;
    }
    return response;
  }
}

interface RequestOptions {
  method: string;
  body?: string | Uint8Array;
  headers: Record<string, string>;
  deadline: number;
  timeoutMs: number;
  maxBytes: number;
  allowPrivateNetworks: boolean;
}

const timeoutError = (url: URL, timeoutMs: number) => new OutboundError('timeout', `No complete answer from ${url.host} within ${timeoutMs} ms`);
const tooLargeError = (url: URL, maxBytes: number) =>
  new OutboundError('too-large', `The answer from ${url.host} is larger than ${Math.round(maxBytes / 1024)} KB`);

function requestOnce(url: URL, o: RequestOptions): Promise<SafeResponse> {
  return new Promise((resolve, reject) => {
    const remaining = o.deadline - Date.now();
    if (remaining <= 0) return reject(timeoutError(url, o.timeoutMs));
    const client = url.protocol === 'https:' ? https : http;
    const headers: Record<string, string> = { 'user-agent': 'firm-site/1.0 (+integrations)', 'accept-encoding': 'gzip, deflate, br', ...o.headers };
    if (o.body !== undefined) headers['content-length'] = String(Buffer.byteLength(o.body));

    let settled = false;
    let req: http.ClientRequest | undefined;
    let res: http.IncomingMessage | undefined;
    let stream: Readable | undefined;
    const cleanUp = () => {
      clearTimeout(timer);
      // Tear down everything: the socket, the response and a decompressor still holding input.
      if (stream && stream !== res) stream.destroy();
      res?.destroy();
      req?.destroy();
    };
    const fail = (err: Error) => {
      if (settled) return;
      settled = true;
      cleanUp();
      reject(err);
    };
    const timer = setTimeout(() => fail(timeoutError(url, o.timeoutMs)), remaining);

    const onResponse = (response: http.IncomingMessage) => {
      res = response;
      // Told up front that it is too big: do not read a byte of it.
      const declared = Number(response.headers['content-length']);
      if (o.method !== 'HEAD' && Number.isFinite(declared) && declared > o.maxBytes) return fail(tooLargeError(url, o.maxBytes));
      const encoding = String(response.headers['content-encoding'] ?? '')
        .trim()
        .toLowerCase();
      let body: Readable = response;
      if (encoding === 'gzip' || encoding === 'x-gzip') body = response.pipe(createGunzip());
      else if (encoding === 'deflate') body = response.pipe(createInflate());
      else if (encoding === 'br') body = response.pipe(createBrotliDecompress());
      stream = body;
      // pipe() does not forward the source's errors: a connection reset mid-body must fail too.
      if (body !== response) response.on('error', (err) => fail(new OutboundError('network', `Could not read the answer from ${url.host}: ${err.message}`)));
      response.on('close', () => {
        if (!response.complete) fail(new OutboundError('network', `${url.host} closed the connection before the answer was complete`));
      });
      const chunks: Buffer[] = [];
      let size = 0;
      body.on('data', (chunk: Buffer) => {
        if (settled) return;
        size += chunk.length;
        if (size > o.maxBytes) return fail(tooLargeError(url, o.maxBytes));
        chunks.push(chunk);
      });
      body.on('error', (err) => fail(new OutboundError('network', `Could not read the answer from ${url.host}: ${err.message}`)));
      body.on('end', () => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        const buffer = Buffer.concat(chunks);
        const flat: Record<string, string> = {};
        for (const [k, v] of Object.entries(response.headers)) if (v !== undefined) flat[k] = Array.isArray(v) ? v.join(', ') : v;
        const status = response.statusCode ?? 0;
        resolve({
          status,
          ok: status >= 200 && status < 300,
          headers: flat,
          url: url.href,
          body: buffer,
          text: () => decodeText(buffer, flat['content-type']),
          json: <T>() => JSON.parse(decodeText(buffer, flat['content-type'])) as T,
        });
      });
    };

    try {
      req = client.request(url, { method: o.method, headers, lookup: o.allowPrivateNetworks ? undefined : publicOnlyLookup, agent: false }, onResponse);
    } catch (err) {
      // Invalid header names or values throw at once.
      return fail(new OutboundError('bad-url', `Could not send the request to ${url.host}: ${(err as Error).message}`));
    }
    req.on('error', (err) => fail(err instanceof OutboundError ? err : new OutboundError('network', `Could not reach ${url.host}: ${err.message}`)));
    if (o.body !== undefined) req.write(o.body);
    req.end();
  });
}

/** UTF-8 unless the content-type names another charset this runtime knows; a BOM is dropped. */
function decodeText(buffer: Buffer, contentType: string | undefined): string {
  const charset = /charset\s*=\s*"?([\w.:-]+)"?/i.exec(contentType ?? '')?.[1];
  if (charset) {
    try {
      return new TextDecoder(charset).decode(buffer);
    } catch {
      /* unknown charset: fall back to UTF-8 */
    }
  }
  return new TextDecoder('utf-8').decode(buffer);
}
