/** A response body kept ready to send: raw, gzip and brotli, with a strong ETag. */
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

export interface Prepared {
  status: number;
  type: string;
  body: Buffer;
  gzip: Buffer | null;
  brotli: Buffer | null;
  etag: string;
  cacheControl: string;
  headers?: Record<string, string>;
}

const compressible = /^(text\/|application\/(javascript|json|xml|rss\+xml|manifest\+json)|image\/svg\+xml)/;

export function prepare(status: number, type: string, body: Buffer, cacheControl: string, headers?: Record<string, string>): Prepared {
  const worth = compressible.test(type) && body.length > 512;
  return {
    status,
    type,
    body,
    gzip: worth ? gzipSync(body, { level: 9 }) : null,
    brotli: worth ? brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } }) : null,
    etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`,
    cacheControl,
    headers,
  };
}

/** Sends a prepared body, honouring If-None-Match and Accept-Encoding; HEAD gets headers only. */
export function send(req: IncomingMessage, res: ServerResponse, p: Prepared, extraHeaders: Record<string, string> = {}) {
  const headers: Record<string, string> = {
    'content-type': p.type,
    etag: p.etag,
    'cache-control': p.cacheControl,
    vary: 'accept-encoding',
    ...p.headers,
    ...extraHeaders,
  };
  if (p.status === 200 && req.headers['if-none-match'] === p.etag) {
    res.writeHead(304, headers).end();
    return;
  }
  const accepts = String(req.headers['accept-encoding'] ?? '');
  let body = p.body;
  if (p.brotli && /\bbr\b/.test(accepts)) {
    body = p.brotli;
    headers['content-encoding'] = 'br';
  } else if (p.gzip && /\bgzip\b/.test(accepts)) {
    body = p.gzip;
    headers['content-encoding'] = 'gzip';
  }
  headers['content-length'] = String(body.length);
  res.writeHead(p.status, headers);
  res.end(req.method === 'HEAD' ? undefined : body);
}
