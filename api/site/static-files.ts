/**
 * The prerendered site (dist/client), held in memory, compressed once at start: a small site fits
 * easily, and every request is a map lookup. The compression runs off the main thread while the server
 * starts (`compressed`); a file asked for before its turn goes out as it is. Hashed assets under
 * /_astro are cached for a year; the rest is kept by a CDN under the key `static` (purged when a
 * container starts: a deploy) and revalidated by browsers (ETag).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import { IMMUTABLE, NO_STORE, STATIC_FILE, cdnHeaders } from '../cdn/cache-policy.ts';
import { compress, uncompressed, type Prepared } from './compressed.ts';

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

const STATIC_KEYS = ['site', 'static'];
/** The sign-in page belongs to the admin side: never kept by a shared cache. */
const privatePage = (rel: string) => rel === '/login' || rel.startsWith('/login/') || rel === '/admin' || rel.startsWith('/admin/');

export interface StaticFiles {
  get(pathname: string): Prepared | undefined;
  size: number;
  bytes: number;
  /** Settles when every file worth it is compressed. */
  compressed: Promise<void>;
}

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

export function loadStaticFiles(root: string): StaticFiles {
  const files = new Map<string, Prepared>();
  let bytes = 0;
  for (const file of walk(root)) {
    const rel = '/' + relative(root, file).split(sep).join('/');
    const type = types[extname(file)] ?? 'application/octet-stream';
    const immutable = rel.startsWith('/_astro/');
    const body = readFileSync(file);
    bytes += body.length;
    if (rel === '/404.html') continue; // served by the site for unknown paths, with status 404
    const prepared = immutable
      ? uncompressed(200, type, body, IMMUTABLE)
      : privatePage(rel)
        ? uncompressed(200, type, body, NO_STORE)
        : uncompressed(200, type, body, STATIC_FILE, cdnHeaders(STATIC_KEYS));
    files.set(rel, prepared);
    // Pages are built as /about/index.html: serve them at /about and /about/.
    if (rel.endsWith('/index.html')) {
      const dirPath = rel.slice(0, -'index.html'.length);
      files.set(dirPath, prepared);
      if (dirPath !== '/') files.set(dirPath.slice(0, -1), prepared);
    }
  }
  const compressed = Promise.all([...new Set(files.values())].map((p) => compress(p, 'background'))).then(() => {});
  return {
    get: (pathname) => files.get(pathname),
    get size() {
      return files.size;
    },
    bytes,
    compressed,
  };
}
