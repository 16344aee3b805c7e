/**
 * What a shared cache (the CDN in front of the containers) may keep, and under which names
 * (docs/decisions/017-many-containers.md).
 *
 * - Public pages, /theme.css and the public API lists are kept by the CDN for a day and purged by name
 *   the moment they change; browsers revalidate each time (max-age=0, with the ETag: a 304 is cheap).
 * - Each such response names what it shows in `Surrogate-Key` (Varnish xkey, Fastly) and `Cache-Tag`
 *   (Cloudflare): the keys below. A change purges exactly the keys of what it touched.
 * - Hashed assets never change under their name: a year, immutable. Everything else (the admin, the
 *   identity gateway, anything personal, any error) is not for a shared cache.
 */
import type { ContentChange } from '../content-events.ts';

/**
 * Pages, /theme.css, public lists: a day at the CDN (purged on change), revalidated by browsers on
 * every use. The stale windows are for the CDN only and go in its own headers (below): a browser
 * honours stale-while-revalidate too, and would show an old theme or page after a change.
 */
export const SHARED_CACHE = 'public, max-age=0, must-revalidate, s-maxage=86400';
/**
 * What the CDN may do beyond SHARED_CACHE: serve a copy 30 s past its day while it refreshes it, and
 * a day past it while no container answers. Sent as Surrogate-Control (Fastly, Akamai, our Varnish)
 * and CDN-Cache-Control (RFC 9213: Cloudflare); browsers ignore both, and the CDN strips them.
 */
export const CDN_CONTROL = 'max-age=86400, stale-while-revalidate=30, stale-if-error=86400';
/** Hashed /_astro assets. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Prerendered files: a deploy is their only change, and each container purges `static` when it starts. */
export const STATIC_FILE = SHARED_CACHE;
/** Anything not meant for a shared cache. */
export const NO_STORE = 'no-store';

/**
 * The names. `site` is on every kept response (a restore purges it all); `posts` on everything that
 * lists posts, `articles` on every article page and `post:<slug>` on one article; `theme` on what
 * shows the active theme and `components` on every page (what an admin hides is cut from each).
 */
export const SITE_KEY = 'site';
export const postKey = (slug: string) => `post:${slug}`;

/** On every page (HTML, the feed, the sitemap): what an admin hides is cut from each (api/site/visible-pages.ts). */
export const COMPONENTS_KEY = 'components';

/** The keys of a published page (api/site/published-pages.ts paths). */
export function pageKeys(path: string): string[] {
  return [...publishedPageKeys(path), COMPONENTS_KEY];
}

function publishedPageKeys(path: string): string[] {
  switch (path) {
    case '/':
      return [SITE_KEY, 'posts', 'testimonials', 'external-reviews'];
    case '/blog':
      return [SITE_KEY, 'posts', 'external-articles'];
    case '/external-articles':
      return [SITE_KEY, 'external-articles'];
    case '/rss.xml':
    case '/sitemap.xml':
      return [SITE_KEY, 'posts'];
  }
  // The blog's later pages and a sitemap index's parts list posts too.
  if (/^\/blog\/page\/\d+$/.test(path) || /^\/sitemap-\d+\.xml$/.test(path)) return [SITE_KEY, 'posts'];
  if (path.startsWith('/blog/')) return [SITE_KEY, 'articles', postKey(decodeURIComponent(path.slice('/blog/'.length)))];
  // An article's card changes with the article.
  const card = /^\/og\/blog\/([^/]+)\.png$/.exec(path);
  if (card) return [SITE_KEY, 'articles', postKey(decodeURIComponent(card[1]!))];
  return [SITE_KEY, 'static'];
}

/** /theme.css: the active theme's colours. */
export const THEME_CSS_KEYS = [SITE_KEY, 'theme'];

/** A prerendered file: a page also carries COMPONENTS_KEY. */
export const staticFileKeys = (type: string) => (/^text\/html/.test(type) ? [SITE_KEY, 'static', COMPONENTS_KEY] : [SITE_KEY, 'static']);

/** The keys a content change purges. */
export function changeKeys(change: ContentChange): string[] {
  switch (change.topic) {
    case 'blog-posts':
      return change.keys?.length ? ['posts', ...change.keys.map(postKey)] : ['posts', 'articles'];
    case 'testimonials':
      return ['testimonials'];
    case 'external-reviews':
      return ['external-reviews'];
    case 'external-articles':
      return ['external-articles'];
    case 'themes':
      return ['theme'];
    case 'component-visibility':
      return [COMPONENTS_KEY];
    case 'booking-rules':
      return ['booking-rules'];
    case 'site':
      return [SITE_KEY];
  }
}

/**
 * The paths a change alters, for a CDN that purges by path (CloudFront). '/*' is everything; a
 * path ending in '*' is a prefix.
 */
export function changePaths(change: ContentChange): string[] {
  switch (change.topic) {
    case 'blog-posts':
      return change.keys?.length
        ? [
            '/',
            '/blog',
            '/blog/page/*',
            '/rss.xml',
            '/sitemap.xml',
            '/sitemap-*',
            '/api/blog-posts',
            ...change.keys.flatMap((slug) => [
              `/blog/${encodeURIComponent(slug)}`,
              `/og/blog/${encodeURIComponent(slug)}.png`,
              `/api/blog-posts/${encodeURIComponent(slug)}`,
            ]),
          ]
        : ['/', '/blog', '/blog/*', '/og/blog/*', '/rss.xml', '/sitemap.xml', '/sitemap-*', '/api/blog-posts*'];
    case 'testimonials':
      return ['/', '/api/testimonials'];
    case 'external-reviews':
      return ['/', '/api/external-reviews'];
    case 'external-articles':
      return ['/blog', '/external-articles', '/api/external-blog-articles'];
    case 'themes':
      return ['/theme.css', '/api/themes/active'];
    // Every page may lose or regain a part.
    case 'component-visibility':
      return ['/*'];
    // No page shows them: the modal reads the public rules (availability answers are never kept).
    case 'booking-rules':
      return ['/api/booking-rules'];
    case 'site':
      return ['/*'];
  }
}

/** A key as one token for every CDN: no spaces, commas or non-ASCII (a slug has none; anything odd is %-escaped). */
export const keyToken = (key: string) => encodeURIComponent(key).replace(/%3A/g, ':');

/**
 * The CDN's headers of a SHARED_CACHE response: its keys in Surrogate-Key (space separated) and
 * Cache-Tag (commas), and its stale windows (CDN_CONTROL).
 */
export function cdnHeaders(keys: readonly string[]): Record<string, string> {
  const tokens = keys.map(keyToken);
  return { 'surrogate-key': tokens.join(' '), 'cache-tag': tokens.join(','), 'surrogate-control': CDN_CONTROL, 'cdn-cache-control': CDN_CONTROL };
}
