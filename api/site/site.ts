/**
 * Everything that is not /api: the site as visitors get it.
 *   /theme.css            -> the active theme (regenerated on change)
 *   published pages      -> stored renders, republished on change (published-pages.ts); an article
 *                           slug that names no page gets the stored 404 (article-slugs.ts)
 *   prerendered files    -> memory, precompressed (static-files.ts)
 *   /admin, /_…           -> the Astro handler (on-demand pages)
 *   anything else        -> the site's 404 page
 * Every page goes out without the components an admin hid, and a hidden component's own page answers
 * 404 (visible-pages.ts).
 * The site renders a published page when this module asks it to, through an internal request that
 * carries a per-process secret, so no outside request can bypass the stored pages.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { sampleArticles } from '../../src/content/samples.ts';
import type { ComponentVisibility } from '../../src/shared/public-api.ts';
import { NO_STORE, pageKeys, SHARED_CACHE, cdnHeaders, THEME_CSS_KEYS } from '../cdn/cache-policy.ts';
import type { ContentChange } from '../content-events.ts';
import { applySecurityHeaders, isPrivatePage, privatePageHeaders, securityHeadersFor, siteHeaders, type SecuritySettings } from '../http/security-headers.ts';
import { internalHeaders } from '../internal.ts';
import type { Logger } from '../logger.ts';
import { createArticleSlugs } from './article-slugs.ts';
import { prepare, send, type Prepared } from './compressed.ts';
import { readScriptHashes } from './inline-sources.ts';
import { pathnameOf } from './request-path.ts';
import { createPublishedPages, publishedPath, type PublishedPages } from './published-pages.ts';
import { loadStaticFiles } from './static-files.ts';
import { themeStylesheet } from './theme-css.ts';
import { createVisiblePages } from './visible-pages.ts';

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

export interface Site {
  /** `requestId`: the X-Request-Id the server gave the request, sent with the answer. */
  handle(req: IncomingMessage, res: ServerResponse, requestId: string): void;
  onChange(change: ContentChange): Promise<void>;
  pages: PublishedPages;
  /** Renders the main published pages ahead of the first visitor. */
  prewarm(): Promise<void>;
}

const distDir = fileURLToPath(new URL('../../dist/', import.meta.url));
/** Paths the Astro handler renders on demand (the admin, Astro's own endpoints); any other unknown path is the 404 page. */
const onDemand = (pathname: string) => pathname === '/admin' || pathname.startsWith('/admin/') || pathname.startsWith('/_');
const RENDER_HEADER = 'x-site-render';

export interface SiteOptions {
  /** The public API, in-process (the app's fetch). */
  api: (request: Request) => Response | Promise<Response>;
  /** This server's own origin, for internal renders (known once it listens). */
  selfOrigin: () => string;
  log: Logger;
  /** What the security headers depend on (SITE_URL, the Cognito region). */
  security: SecuritySettings;
}

/**
 * Why the build and SITE_URL disagree, or null: the canonical URL a prerendered page was built with
 * (Astro's `site`, from SITE_URL at `npm run build`) against the origin the server is told it has.
 * A build made without SITE_URL names http://localhost:4321 in every canonical URL, link preview,
 * the feed and the sitemap.
 */
export function builtForAnotherOrigin(prerenderedHtml: string, siteUrl: string): string | null {
  const canonical = /<link rel="canonical" href="([^"]+)"/.exec(prerenderedHtml)?.[1];
  if (!canonical || !URL.canParse(canonical)) return null;
  const built = new URL(canonical).origin;
  const expected = new URL(siteUrl).origin;
  return built === expected
    ? null
    : `the site was built for ${built} but SITE_URL is ${expected}: canonical URLs, link previews, the feed and the sitemap name ${built}; run npm run build with SITE_URL=${expected}`;
}

export async function createSite({ api, selfOrigin, log, security }: SiteOptions): Promise<Site> {
  const entry = `${distDir}server/entry.mjs`;
  const about = `${distDir}client/about/index.html`;
  const mismatch = existsSync(about) ? builtForAnotherOrigin(readFileSync(about, 'utf8'), security.siteUrl) : null;
  if (mismatch) log.error(mismatch);
  if (!existsSync(entry)) {
    throw new Error('The site is not built: run `npm run build` (or `npm start`, which builds when needed), or pass --api-only.');
  }
  process.env.ASTRO_NODE_AUTOSTART = 'disabled';
  const { handler: astro } = (await import(pathToFileURL(entry).href)) as { handler: Listener };
  const files = loadStaticFiles(`${distDir}client`);
  files.compressed.catch((err: unknown) => log.error('static files could not be compressed', { err: String(err) }));
  // Astro's hashes of the scripts the build inlines, read once: one policy for every page (decision 012).
  const hashes = readScriptHashes(`${distDir}_headers.json`);
  const publicHeaders = siteHeaders(security, hashes);
  const adminHeaders = privatePageHeaders(security, hashes);
  log.info('site loaded', { files: files.size, bytes: files.bytes });
  const renderToken = randomBytes(24).toString('base64url');

  const render = async (pathname: string): Promise<Prepared> => {
    const res = await fetch(selfOrigin() + pathname, {
      headers: { [RENDER_HEADER]: renderToken, 'accept-encoding': 'identity' },
      redirect: 'manual',
    });
    const body = Buffer.from(await res.arrayBuffer());
    const location = res.headers.get('location');
    // A page, an earlier slug's redirect or 'Article Not Found' may be kept by the CDN (until a change
    // purges its keys); a failure may not.
    const shared = res.status === 200 || res.status === 404 || (res.status >= 301 && res.status <= 308);
    // Astro says text/html without a charset: said here, so no browser or validator has to guess it.
    const type = res.headers.get('content-type') ?? 'text/html';
    const contentType = /^text\/html\s*$/i.test(type) ? 'text/html; charset=utf-8' : type;
    return prepare(res.status, contentType, body, shared ? SHARED_CACHE : NO_STORE, {
      ...(location ? { location } : {}),
      ...(shared ? cdnHeaders(pageKeys(pathname)) : {}),
    });
  };
  const slugs = createArticleSlugs(async () => {
    const res = await api(new Request('http://site/api/internal/article-slugs', { headers: internalHeaders }));
    if (!res.ok) throw new Error(`GET /api/internal/article-slugs answered ${res.status}`);
    // The built-in samples answer at their slugs whatever the API holds (src/pages/blog/[slug].astro).
    return [...sampleArticles.map((a) => a.slug), ...((await res.json()) as string[])];
  }, log);
  await slugs.reload().catch(() => {}); // logged; visitors' requests try again
  const pages = createPublishedPages(render, log, { articleExists: slugs.exists });

  const json = async <T>(path: string) => {
    const res = await api(new Request(`http://site${path}`));
    if (!res.ok) throw new Error(`GET ${path} answered ${res.status}`);
    return (await res.json()) as T;
  };
  const visible = createVisiblePages(() => json<ComponentVisibility[]>('/api/component-visibility'), new URL(security.siteUrl).origin, log);
  const notFound = async (): Promise<Prepared> => {
    if (files.notFound) return files.notFound;
    throw new Error('The build has no 404 page (dist/client/404.html)');
  };

  let themeCss: Promise<Prepared> | null = null;
  const buildThemeCss = async (): Promise<Prepared> => {
    const theme = await json<{ cssVariables: string }>('/api/themes/active');
    return prepare(200, 'text/css; charset=utf-8', Buffer.from(themeStylesheet(theme.cssVariables)), SHARED_CACHE, cdnHeaders(THEME_CSS_KEYS));
  };
  const getThemeCss = () => {
    themeCss ??= buildThemeCss().catch((err: unknown) => {
      themeCss = null;
      throw err;
    });
    return themeCss;
  };

  const fail = (res: ServerResponse, secured: Readonly<Record<string, string>>, requestId: string, err: unknown) => {
    log.error('site request failed', { err: String(err), requestId });
    if (!res.headersSent)
      res
        .writeHead(503, { ...secured, 'content-type': 'text/plain; charset=utf-8', 'retry-after': '5', 'x-request-id': requestId })
        .end('The site is briefly unavailable. Please try again in a moment.');
  };

  const handle: Site['handle'] = (req, res, requestId) => {
    if (req.headers[RENDER_HEADER] === renderToken) return astro(req, res);
    const readOnly = req.method === 'GET' || req.method === 'HEAD';
    // A request target no URL can be made of ('//', '/\\') once threw out of this listener and
    // ended the process: it is a 400, like any other malformed request.
    const pathname = pathnameOf(req.url);
    // What this server sends itself gets the security headers in its one writeHead; Astro's answers
    // get them put over its own (applySecurityHeaders). The admin and /login may not be framed at all.
    const headers = pathname !== null && isPrivatePage(pathname) ? adminHeaders : publicHeaders;
    const secured = securityHeadersFor(security, headers, req);
    if (pathname === null) {
      res.writeHead(400, { ...secured, 'content-type': 'text/plain; charset=utf-8', 'cache-control': NO_STORE, 'x-request-id': requestId }).end('Bad request');
      return;
    }
    if (readOnly && pathname === '/theme.css') {
      getThemeCss().then(
        (css) => send(req, res, css, secured, requestId),
        (err) => fail(res, secured, requestId, err),
      );
      return;
    }
    const published = readOnly ? publishedPath(pathname) : null;
    if (published) {
      // The one stored 'Article Not Found' page answers every unknown slug: named for the slug asked
      // for, so a post published at it later purges it from the CDN.
      const named = (page: Prepared) => (page.status === 404 && page.cacheControl !== NO_STORE ? { ...secured, ...cdnHeaders(pageKeys(published)) } : secured);
      visible
        .of(published, () => pages.get(published), notFound)
        .then(
          (page) => send(req, res, page, named(page), requestId),
          (err) => fail(res, secured, requestId, err),
        );
      return;
    }
    const file = readOnly ? files.get(pathname) : undefined;
    if (file || (readOnly && !onDemand(pathname) && files.notFound)) {
      visible
        .of(pathname, () => file ?? notFound(), notFound)
        .then(
          (page) => send(req, res, page, secured, requestId),
          (err) => fail(res, secured, requestId, err),
        );
      return;
    }
    res.setHeader('x-request-id', requestId);
    applySecurityHeaders(security, headers, req, res);
    // The admin and Astro's own paths: never for a shared cache (unless the page says otherwise).
    res.setHeader('cache-control', NO_STORE);
    return astro(req, res);
  };

  return {
    handle,
    pages,
    async onChange(change) {
      if (change.topic === 'themes' || change.topic === 'site') {
        themeCss = null;
        await getThemeCss().catch(() => {});
      }
      if (change.topic === 'component-visibility' || change.topic === 'site') await visible.changed();
      if (change.topic === 'site') {
        await slugs.reload().catch(() => {});
        await pages.republishAll();
      } else if (change.topic === 'blog-posts') {
        await Promise.all([slugs.changed(change.keys).catch(() => {}), pages.onChange(change)]);
      } else await pages.onChange(change);
    },
    async prewarm() {
      await Promise.all([
        ...['/', '/blog', '/external-articles'].map((p) => pages.get(p).catch(() => {})),
        getThemeCss().catch(() => {}),
        visible.changed(),
        pages.notFound().catch(() => {}),
        files.compressed.catch(() => {}),
      ]);
    },
  };
}
