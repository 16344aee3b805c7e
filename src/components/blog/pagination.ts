/**
 * The blog's pages: /blog shows the newest POSTS_PER_PAGE articles, /blog/page/2 the next ones, and so
 * on. A page renders its own slice only, so a page's size and its render time stay the same however
 * many articles the firm publishes (issue: republishing whose cost does not grow with the content).
 */
export const POSTS_PER_PAGE = 12;

export const blogPagePath = (page: number) => (page === 1 ? '/blog' : `/blog/page/${page}`);

export interface BlogPage<T> {
  posts: T[];
  page: number;
  pages: number;
  total: number;
}

/** Page `page` (from 1) of the list, or null when it has no such page (page 1 always exists). */
export function blogPage<T>(all: readonly T[], page: number, perPage = POSTS_PER_PAGE): BlogPage<T> | null {
  const pages = Math.max(1, Math.ceil(all.length / perPage));
  if (!Number.isInteger(page) || page < 1 || page > pages) return null;
  return { posts: all.slice((page - 1) * perPage, page * perPage), page, pages, total: all.length };
}

/** The page numbers a pagination bar links: the first, the last, and two either side of this one; null is a gap. */
export function pageLinks(page: number, pages: number): (number | null)[] {
  const shown = [...new Set([1, page - 2, page - 1, page, page + 1, page + 2, pages])].filter((n) => n >= 1 && n <= pages).sort((a, b) => a - b);
  const links: (number | null)[] = [];
  for (const n of shown) {
    const last = links.at(-1);
    if (typeof last === 'number' && n - last > 1) links.push(n - last === 2 ? n - 1 : null);
    links.push(n);
  }
  return links;
}
