/** A response body kept ready to send: raw, gzip and brotli, with a strong ETag. */
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

export interface Prepared {
  status: number;
  type: string;
  body: Buffer;
  /** Filled by compress(); until then (static files at start) the body goes out as it is. */
  gzip: Buffer | null;
  brotli: Buffer | null;
  etag: string;
  cacheControl: string;
  headers?: Record<string, string>;
}

const compressible = /^(text\/|application\/(javascript|json|xml|rss\+xml|manifest\+json)|image\/svg\+xml)/;
/** Whether a body of this type and size is sent compressed (a small one gains nothing). */
export const worthCompressing = (type: string, length: number) => compressible.test(type) && length > 512;
const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

/** The body as it is, with its ETag; compress() adds the encoded forms. */
export function uncompressed(status: number, type: string, body: Buffer, cacheControl: string, headers?: Record<string, string>): Prepared {
  return {
    status,
    type,
    body,
    gzip: null,
    brotli: null,
    etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`,
    cacheControl,
    headers,
  };
}

/**
 * Compressions at once. Brotli 11 costs about 1 ms of CPU per KB, so it never runs on the main thread
 * (the async zlib calls run in libuv's threadpool), and two at most keep two of the pool's four threads
 * free for file and DNS work (a republish of every page queues here instead). Rendered pages go ahead
 * of the static files compressed at start, which a visitor gets uncompressed meanwhile.
 */
const MAX_COMPRESSING = 2;
let compressing = 0;
const waiting = { page: [] as (() => void)[], background: [] as (() => void)[] };
const acquire = (queue: keyof typeof waiting): Promise<void> =>
  compressing < MAX_COMPRESSING ? (compressing++, Promise.resolve()) : new Promise((resolve) => waiting[queue].push(resolve));
const release = () => {
  const next = waiting.page.shift() ?? waiting.background.shift();
  if (next)
    next(); // the slot passes on as it is
  else compressing--;
};

/** Quick levels: a few milliseconds for a page, so a republish is visible at once. */
const QUICK_GZIP = 6;
const QUICK_BROTLI = 5;

/** The best forms, gzip 9 and brotli 11 (also what the build writes beside each file: precompress.ts). */
export async function bestForms(body: Buffer): Promise<{ gzip: Buffer; brotli: Buffer }> {
  // One after the other: each compression holds one pool thread.
  const gzipped = await gzipAsync(body, { level: 9 });
  const brotli = await brotliAsync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } });
  return { gzip: gzipped, brotli };
}

/** The best forms, through the queue; they replace the quick ones when made. */
async function compressBest(p: Prepared, queue: keyof typeof waiting): Promise<Prepared> {
  await acquire(queue);
  try {
    Object.assign(p, await bestForms(p.body));
  } finally {
    release();
  }
  return p;
}

/** Upgrades still running (tests wait for them: `bestCompressions()`). */
const upgrades = new Set<Promise<unknown>>();
export const bestCompressions = () => Promise.all([...upgrades]);

/**
 * Adds gzip and brotli to a body worth compressing (off the main thread); resolves with the same
 * object. A rendered page ('page') resolves once the quick levels are made, and gets the best ones
 * in the background, so a publish is visible within milliseconds whatever else is compressing;
 * static files ('background') wait for the best ones, after every page.
 */
export async function compress(p: Prepared, queue: 'page' | 'background' = 'page'): Promise<Prepared> {
  if (!worthCompressing(p.type, p.body.length) || (p.gzip && p.brotli)) return p;
  if (queue === 'background') return compressBest(p, 'background');
  const [gzipped, brotli] = await Promise.all([
    gzipAsync(p.body, { level: QUICK_GZIP }),
    brotliAsync(p.body, { params: { [constants.BROTLI_PARAM_QUALITY]: QUICK_BROTLI, [constants.BROTLI_PARAM_SIZE_HINT]: p.body.length } }),
  ]);
  p.gzip = gzipped;
  p.brotli = brotli;
  const upgrade = compressBest(p, 'page').catch(() => {}); // the quick forms stay if it fails
  upgrades.add(upgrade);
  void upgrade.finally(() => upgrades.delete(upgrade));
  return p;
}

/** The body with its ETag and compressed forms; resolves once they are made. */
export function prepare(status: number, type: string, body: Buffer, cacheControl: string, headers?: Record<string, string>): Promise<Prepared> {
  return compress(uncompressed(status, type, body, cacheControl, headers));
}

type Encoding = 'br' | 'gzip' | 'identity';
/** One answer's headers as sent for one body form and one set of extra headers. */
interface SentHeaders {
  body: Buffer;
  extra: object;
  headers: Readonly<Record<string, string>>;
}
/**
 * The headers of each prepared body, built once per form (raw, gzip, brotli) and extra set (the
 * security headers: one object per server and scheme), not once per request: a page's answer is then
 * one writeHead of a ready object, as a bare node:http server's is. A form upgraded in place by
 * compress() is a new Buffer, so its entry is built again.
 */
const sentHeaders = new WeakMap<Prepared, Partial<Record<Encoding, SentHeaders>>>();

function headersOf(p: Prepared, extra: Readonly<Record<string, string>>, encoding: Encoding, body: Buffer): Readonly<Record<string, string>> {
  let forms = sentHeaders.get(p);
  if (!forms) sentHeaders.set(p, (forms = {}));
  const kept = forms[encoding];
  if (kept && kept.body === body && kept.extra === extra) return kept.headers;
  const headers = {
    'content-type': p.type,
    etag: p.etag,
    'cache-control': p.cacheControl,
    vary: 'accept-encoding',
    ...p.headers,
    ...extra,
    ...(encoding === 'identity' ? {} : { 'content-encoding': encoding }),
    'content-length': String(body.length),
  };
  forms[encoding] = { body, extra, headers };
  return headers;
}

/**
 * Sends a prepared body, honouring If-None-Match and Accept-Encoding; HEAD gets headers only.
 * `requestId`: the X-Request-Id this server gave the request, sent with it.
 */
export function send(req: IncomingMessage, res: ServerResponse, p: Prepared, extraHeaders: Readonly<Record<string, string>> = {}, requestId?: string) {
  if (p.status === 200 && req.headers['if-none-match'] === p.etag) {
    const { 'content-length': _length, 'content-encoding': _encoding, ...headers } = headersOf(p, extraHeaders, 'identity', p.body);
    res.writeHead(304, requestId ? { ...headers, 'x-request-id': requestId } : headers).end();
    return;
  }
  const accepts = req.headers['accept-encoding'] ?? '';
  let encoding: Encoding = 'identity';
  let body = p.body;
  if (p.brotli && /\bbr\b/.test(accepts)) {
    encoding = 'br';
    body = p.brotli;
  } else if (p.gzip && /\bgzip\b/.test(accepts)) {
    encoding = 'gzip';
    body = p.gzip;
  }
  const headers = headersOf(p, extraHeaders, encoding, body);
  res.writeHead(p.status, requestId ? { ...headers, 'x-request-id': requestId } : headers);
  res.end(req.method === 'HEAD' ? undefined : body);
}
