/**
 * The prerendered site (dist/client), held in memory with its compressed forms: a small site fits
 * easily, and every request is a map lookup. The build writes each file's best forms beside it
 * (`file.br`, `file.gz`: precompress.ts), read here at start; a file without them (a build from
 * before) is compressed off the main thread while the server starts (`compressed`), and goes out as it
 * is until then. Hashed assets under
 * /_astro are cached for a year; the rest is kept by a CDN under the key `static` (purged when a
 * container starts: a deploy) and revalidated by browsers (ETag).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import { IMMUTABLE, NO_STORE, STATIC_FILE, cdnHeaders, staticFileKeys } from '../cdn/cache-policy.ts';
import { isPrivatePage } from '../http/security-headers.ts';
import { compress, uncompressed, worthCompressing, type Prepared } from './compressed.ts';

const types: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.woff2': 'font/woff2',
  '.webmanifest': 'application/manifest+json',
};

export const contentType = (file: string) => types[extname(file)] ?? 'application/octet-stream';

/** The compressed forms the build writes beside a file. */
export const PRECOMPRESSED = /\.(br|gz)$/;

/** A file's forms as the build wrote them, when both are there and not older than the file. */
function precompressed(file: string): { gzip: Buffer; brotli: Buffer } | null {
  if (!existsSync(`${file}.br`) || !existsSync(`${file}.gz`)) return null;
  const written = statSync(file).mtimeMs;
  if (statSync(`${file}.br`).mtimeMs < written || statSync(`${file}.gz`).mtimeMs < written) return null;
  return { brotli: readFileSync(`${file}.br`), gzip: readFileSync(`${file}.gz`) };
}

export interface StaticFiles {
  get(pathname: string): Prepared | undefined;
  /** The site's 404 page (status 404), when the build made one. */
  notFound: Prepared | undefined;
  size: number;
  bytes: number;
  /** Settles when every file worth it is compressed. */
  compressed: Promise<void>;
}

export function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

export function loadStaticFiles(root: string): StaticFiles {
  const files = new Map<string, Prepared>();
  let notFound: Prepared | undefined;
  let bytes = 0;
  for (const file of walk(root)) {
    if (PRECOMPRESSED.test(file) && existsSync(file.slice(0, -3))) continue; // read with its file
    const rel = '/' + relative(root, file).split(sep).join('/');
    const type = contentType(file);
    const immutable = rel.startsWith('/_astro/');
    const body = readFileSync(file);
    bytes += body.length;
    if (rel === '/404.html') {
      // The answer to every unknown path, with status 404; never kept by a shared cache.
      notFound = uncompressed(404, type, body, NO_STORE);
      continue;
    }
    const prepared = immutable
      ? uncompressed(200, type, body, IMMUTABLE)
      : // The sign-in page (and an admin invitation's) belongs to the admin side: never kept by a shared cache.
        isPrivatePage(rel)
        ? uncompressed(200, type, body, NO_STORE)
        : uncompressed(200, type, body, STATIC_FILE, cdnHeaders(staticFileKeys(type)));
    if (worthCompressing(type, body.length)) Object.assign(prepared, precompressed(file));
    files.set(rel, prepared);
    // Pages are built as /about/index.html: serve them at /about and /about/.
    if (rel.endsWith('/index.html')) {
      const dirPath = rel.slice(0, -'index.html'.length);
      files.set(dirPath, prepared);
      if (dirPath !== '/') files.set(dirPath.slice(0, -1), prepared);
    }
  }
  const compressed = Promise.all([...new Set([...files.values(), ...(notFound ? [notFound] : [])])].map((p) => compress(p, 'background'))).then(() => {});
  return {
    get: (pathname) => files.get(pathname),
    notFound,
    get size() {
      return files.size;
    },
    bytes,
    compressed,
  };
}
