/**
 * Pages an admin's changes alter (SPEC/issue 4 "Static and fresh"): home, the blog, each article,
 * external articles and the feeds are rendered once by the site, kept as ready-to-send HTML, and
 * re-rendered when the content they show changes. A visitor's request never queries the database;
 * an admin's change reaches every affected page as soon as it is re-rendered (measured by
 * `npm run bench`, goal under 1 s). See docs/decisions/007-republishing.md.
 */
import type { ContentChange } from '../content-events.ts';
import type { Logger } from '../logger.ts';
import type { Prepared } from './compressed.ts';

/** Renders one path through the site (bypassing this store) and returns the prepared response. */
export type Renderer = (pathname: string) => Promise<Prepared>;

const fixed = ['/', '/blog', '/external-articles', '/sitemap.xml', '/rss.xml'] as const;
const article = /^\/blog\/([^/]+)$/;
/** Article pages kept at most (unknown slugs are kept too, as 404s, so a flood cannot cost renders). */
const MAX_ARTICLES = 2000;

/** The canonical published path a request maps to, or null when the path is not a published page. */
export function publishedPath(pathname: string): string | null {
  const path = pathname.length > 1 && pathname.endsWith('/') ? pathname.slice(0, -1) : pathname;
  if ((fixed as readonly string[]).includes(path)) return path;
  const m = article.exec(path);
  return m && m[1]!.length <= 200 ? path : null;
}

/** Which published pages a content change touches. */
export function pathsFor(change: ContentChange): string[] {
  switch (change.topic) {
    case 'blog-posts':
      return ['/', '/blog', '/rss.xml', '/sitemap.xml', ...(change.keys ?? []).map((slug) => `/blog/${encodeURIComponent(slug)}`)];
    case 'testimonials':
      return ['/'];
    case 'external-articles':
      return ['/blog', '/external-articles'];
    // Theme and visibility reach every page through /theme.css, not through the HTML.
    case 'themes':
    case 'component-visibility':
      return [];
    case 'site':
      return [];
  }
}

interface Entry {
  page: Prepared | null;
  /** Bumped on every change: a render started before the bump is stale and is discarded. */
  generation: number;
  inflight: Promise<Prepared> | null;
  inflightGeneration: number;
}

export interface PublishedPages {
  /** The stored page, rendering it first if it never was. */
  get(path: string): Promise<Prepared>;
  /** Re-renders the pages a change touches that are stored; resolves when they are fresh. */
  onChange(change: ContentChange): Promise<void>;
  /** Re-renders every stored page (after a restore, or direct database edits). */
  republishAll(): Promise<number>;
  stored(): string[];
}

export function createPublishedPages(render: Renderer, log: Logger): PublishedPages {
  const entries = new Map<string, Entry>();

  const entry = (path: string): Entry => {
    let e = entries.get(path);
    if (!e) {
      e = { page: null, generation: 0, inflight: null, inflightGeneration: -1 };
      entries.set(path, e);
      if (path.startsWith('/blog/')) evictArticles();
    }
    return e;
  };

  function evictArticles() {
    const articles = [...entries.keys()].filter((p) => p.startsWith('/blog/'));
    for (const path of articles.slice(0, Math.max(0, articles.length - MAX_ARTICLES))) entries.delete(path);
  }

  function renderFresh(path: string, e: Entry): Promise<Prepared> {
    if (e.inflight && e.inflightGeneration === e.generation) return e.inflight;
    const generation = e.generation;
    const started = performance.now();
    const inflight = render(path).then(
      (page) => {
        // A server error is a failed render: that visitor gets it, the store keeps its last good page.
        if (page.status >= 500) {
          log.error('page render failed', { path, status: page.status });
          return page;
        }
        if (e.generation === generation) {
          e.page = page;
          log.info('page published', { path, status: page.status, ms: Math.round(performance.now() - started) });
          return page;
        }
        // Content changed while rendering: this result may be stale; render again.
        return renderFresh(path, e);
      },
      (err: unknown) => {
        log.error('page render failed', { path, err: String(err) });
        throw err;
      },
    );
    e.inflight = inflight;
    e.inflightGeneration = generation;
    void inflight.finally(() => {
      if (e.inflight === inflight) e.inflight = null;
    }).catch(() => {});
    return inflight;
  }

  return {
    async get(path) {
      const e = entry(path);
      if (e.page) return e.page;
      return renderFresh(path, e);
    },
    async onChange(change) {
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
      await Promise.all(
        paths.map((path) => {
          const e = entries.get(path)!;
          e.generation++;
          return renderFresh(path, e).catch(() => {});
        }),
      );
      return paths.length;
    },
    stored: () => [...entries.keys()].filter((p) => entries.get(p)?.page),
  };
}
