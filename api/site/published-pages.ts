/**
 * Pages an admin's changes alter: home, the blog, each article,
 * external articles and the feeds are rendered once by the site, kept as ready-to-send HTML, and
 * re-rendered when the content they show changes. A visitor's request never queries the database;
 * an admin's change reaches every affected page as soon as it is re-rendered (measured by
 * `npm run bench`, goal under 1 s). See docs/decisions/007-republishing.md.
 *
 * Only pages and redirects are kept, at most `limits`, the least recently asked for going first. An
 * article slug that names no page answers one stored 'Article Not Found' page (rendered once), so a
 * flood of random slugs costs neither renders nor room in the store (security review).
 */
import type { ContentChange } from '../content-events.ts';
import type { Logger } from '../logger.ts';
import type { Prepared } from './compressed.ts';

/** Renders one path through the site (bypassing this store) and returns the prepared response. */
export type Renderer = (pathname: string) => Promise<Prepared>;

const fixed = ['/', '/blog', '/external-articles', '/sitemap.xml', '/rss.xml'] as const;
const article = /^\/blog\/([^/]+)$/;
/** An article's link-preview card (src/pages/og/blog/[slug].png.ts): kept and re-rendered with its page. */
const articleCard = /^\/og\/blog\/([^/]+)\.png$/;
/**
 * The blog's later list pages (/blog/page/2, …) and the parts of a sitemap index (/sitemap-1.xml, …):
 * every post change shifts them all, so a change drops the stored ones (each is rendered again when
 * next asked for) instead of re-rendering them all, which would cost as much as the content is long.
 */
const listPage = /^\/blog\/page\/[1-9]\d{0,5}$/;
const sitemapPart = /^\/sitemap-[1-9]\d{0,3}\.xml$/;

/** Where the 'Article Not Found' page is rendered: no post can have this slug ('_' is not a slug character). */
export const NOT_FOUND_PATH = '/blog/_not-found';

export interface StoreLimits {
  pages: number;
  /** Bodies raw and compressed. */
  bytes: number;
}

/** About 45 KB an article page (raw, gzip and brotli): far more than the firm's blog needs. */
export const DEFAULT_LIMITS: StoreLimits = { pages: 1000, bytes: 48 * 2 ** 20 };

/** The canonical published path a request maps to, or null when the path is not a published page. */
export function publishedPath(pathname: string): string | null {
  const path = pathname.length > 1 && pathname.endsWith('/') ? pathname.slice(0, -1) : pathname;
  if ((fixed as readonly string[]).includes(path) || listPage.test(path) || sitemapPart.test(path)) return path;
  const m = article.exec(path);
  const card = m ? null : articleCard.exec(path);
  if (!m && !card) return null;
  // One path per slug however it is spelled (/blog/a%2Db is /blog/a-b): spellings cannot multiply pages.
  try {
    const slug = encodeURIComponent(decodeURIComponent((m ?? card)![1]!));
    return m ? `/blog/${slug}` : `/og/blog/${slug}.png`;
  } catch {
    return null; // malformed escapes: the site answers 400
  }
}

/** The slug of a published article path (as publishedPath gives it), or null for the other pages. */
export function articleSlug(path: string): string | null {
  const card = articleCard.exec(path);
  if (card) return decodeURIComponent(card[1]!);
  return path.startsWith('/blog/') && !listPage.test(path) ? decodeURIComponent(path.slice('/blog/'.length)) : null;
}

/** Stored pages a content change makes stale without re-rendering them (see listPage). */
export const droppedBy = (change: ContentChange) => (path: string) =>
  (change.topic === 'blog-posts' && (listPage.test(path) || sitemapPart.test(path))) || (change.topic === 'component-visibility' && sitemapPart.test(path));

/** Which published pages a content change touches. */
export function pathsFor(change: ContentChange): string[] {
  switch (change.topic) {
    case 'blog-posts':
      return [
        '/',
        '/blog',
        '/rss.xml',
        '/sitemap.xml',
        ...(change.keys ?? []).flatMap((slug) => [`/blog/${encodeURIComponent(slug)}`, `/og/blog/${encodeURIComponent(slug)}.png`]),
      ];
    case 'testimonials':
    case 'external-reviews':
      return ['/'];
    case 'external-articles':
      return ['/blog', '/external-articles'];
    // The theme reaches every page through /theme.css; hidden components are cut from every page as it
    // is sent (api/site/site.ts), but the sitemap leaves out their pages when it is made.
    case 'component-visibility':
      return ['/sitemap.xml'];
    case 'themes':
      return [];
    // The booking modal reads them from the API; no published page shows them.
    case 'booking-rules':
      return [];
    case 'site':
      return [];
  }
}

/** Kept: a page, or the redirect of an earlier slug. Never a miss (404) or a failure. */
const keepable = (status: number) => status === 200 || (status >= 301 && status <= 308 && status !== 304);

const sizeOf = (p: Prepared) => p.body.length + (p.gzip?.length ?? 0) + (p.brotli?.length ?? 0);

interface Entry {
  page: Prepared | null;
  /** Bumped on every change: a render started before the bump is stale and is discarded. */
  generation: number;
  /** The generation `page` was rendered at. */
  pageGeneration: number;
  inflight: Promise<Prepared> | null;
  inflightGeneration: number;
  /** The one render that follows a stale one in flight, whatever number of changes came meanwhile. */
  queued: Promise<Prepared> | null;
}

export interface PublishedPagesOptions {
  /** Whether an article slug may name a page (article-slugs.ts); when not, the 404 page answers at once. */
  articleExists?: (slug: string) => boolean;
  limits?: StoreLimits;
}

export interface PublishedPages {
  /** The stored page, rendering it first if it never was. */
  get(path: string): Promise<Prepared>;
  /** The 'Article Not Found' page (status 404), rendered once. */
  notFound(): Promise<Prepared>;
  /** Re-renders the pages a change touches that are stored; resolves when they are fresh. */
  onChange(change: ContentChange): Promise<void>;
  /** Re-renders every stored page (after a restore, or direct database edits). */
  republishAll(): Promise<number>;
  /** The stored paths, least recently asked for first. */
  stored(): string[];
  /** What the store holds. */
  size(): { pages: number; bytes: number };
}

export function createPublishedPages(render: Renderer, log: Logger, options: PublishedPagesOptions = {}): PublishedPages {
  const limits = options.limits ?? DEFAULT_LIMITS;
  const articleExists = options.articleExists ?? (() => true);
  /** In order of use: a page asked for moves to the end; eviction takes from the front. */
  const entries = new Map<string, Entry>();
  let pages = 0;
  let bytes = 0;

  const touch = (path: string, e: Entry) => {
    entries.delete(path);
    entries.set(path, e);
  };

  const drop = (path: string, e: Entry) => {
    if (entries.get(path) !== e) return;
    entries.delete(path);
    if (e.page) {
      pages--;
      bytes -= sizeOf(e.page);
    }
  };

  const keep = (path: string, e: Entry, page: Prepared, generation: number) => {
    if (entries.get(path) !== e) return; // evicted while rendering: the visitor still gets it
    if (e.page) bytes -= sizeOf(e.page);
    else pages++;
    e.page = page;
    e.pageGeneration = generation;
    bytes += sizeOf(page);
    touch(path, e);
    for (const [oldest, o] of entries) {
      if (pages <= limits.pages && bytes <= limits.bytes) break;
      if (o.page) drop(oldest, o); // a first render in flight holds nothing yet
    }
  };

  /**
   * The page at the entry's current generation. Changes that come while a render runs merge: that
   * render is not kept, and one more follows it for all of them (a burst of edits costs two renders
   * a page, not one per edit).
   */
  function renderFresh(path: string, e: Entry): Promise<Prepared> {
    if (e.page && e.pageGeneration === e.generation) return Promise.resolve(e.page);
    if (e.inflight) {
      if (e.inflightGeneration === e.generation) return e.inflight;
      e.queued ??= e.inflight
        .then(
          () => {},
          () => {},
        )
        .then(() => {
          e.queued = null;
          return renderFresh(path, e);
        });
      return e.queued;
    }
    const generation = e.generation;
    const started = performance.now();
    const settle = () => {
      if (e.inflight === inflight) e.inflight = null;
    };
    const inflight: Promise<Prepared> = render(path).then(
      (page) => {
        settle();
        // A server error is a failed render: that visitor gets it, the store keeps its last good page.
        if (page.status >= 500) {
          log.error('page render failed', { path, status: page.status });
          if (!e.page) drop(path, e); // a first render that failed leaves nothing behind
          return page;
        }
        // Content changed while rendering: this result may be stale; render again.
        if (e.generation !== generation) return renderFresh(path, e);
        if (keepable(page.status)) {
          keep(path, e, page, generation);
          log.info('page published', { path, status: page.status, ms: Math.round(performance.now() - started) });
        } else {
          // Not found (unpublished, deleted, never was): nothing to keep, and what was kept is gone.
          if (e.page) log.info('page withdrawn', { path, status: page.status });
          drop(path, e);
        }
        return page;
      },
      (err: unknown) => {
        settle();
        if (!e.page) drop(path, e);
        log.error('page render failed', { path, err: String(err) });
        throw err;
      },
    );
    e.inflight = inflight;
    e.inflightGeneration = generation;
    return inflight;
  }

  let missing: Prepared | null = null;
  let missingGeneration = 0;
  let missingInflight: Promise<Prepared> | null = null;
  const notFound = (): Promise<Prepared> => {
    if (missing) return Promise.resolve(missing);
    if (missingInflight) return missingInflight;
    const generation = missingGeneration;
    const inflight = render(NOT_FOUND_PATH).then((page) => {
      if (page.status !== 404) log.error('page render failed', { path: NOT_FOUND_PATH, status: page.status });
      else if (generation === missingGeneration) {
        missing = page;
        log.info('page published', { path: NOT_FOUND_PATH, status: page.status });
      }
      return page;
    });
    missingInflight = inflight;
    void inflight
      .finally(() => {
        if (missingInflight === inflight) missingInflight = null;
      })
      .catch(() => {});
    return inflight;
  };

  return {
    async get(path) {
      const slug = articleSlug(path);
      if (slug !== null && !articleExists(slug)) return notFound();
      const stored = entries.get(path);
      if (stored?.page) {
        touch(path, stored);
        return stored.page;
      }
      if (stored) return renderFresh(path, stored);
      const e: Entry = { page: null, generation: 0, pageGeneration: -1, inflight: null, inflightGeneration: -1, queued: null };
      entries.set(path, e);
      return renderFresh(path, e);
    },
    notFound,
    async onChange(change) {
      const dropped = droppedBy(change);
      for (const [path, e] of [...entries]) if (dropped(path)) drop(path, e);
      const paths = pathsFor(change).filter((p) => entries.has(p));
      await Promise.all(
        paths.map((path) => {
          const e = entries.get(path)!;
          e.generation++;
          return renderFresh(path, e).catch(() => {
            // Keep serving the last good page; the failure is logged.
          });
        }),
      );
    },
    async republishAll() {
      const paths = [...entries.keys()];
      missing = null;
      missingInflight = null;
      missingGeneration++;
      await Promise.all([
        notFound().catch(() => {}),
        ...paths.map((path) => {
          const e = entries.get(path)!;
          e.generation++;
          return renderFresh(path, e).catch(() => {});
        }),
      ]);
      return paths.length;
    },
    stored: () => [...entries.keys()].filter((p) => entries.get(p)?.page),
    size: () => ({ pages, bytes }),
  };
}
