/**
 * Server-only: every URL the sitemap lists: the public routes and every published article, absolute
 * from the configured site, lastmod from each article's last change; not the pages of a component an
 * admin hid. One read of the public list,
 * whatever the number of articles, of the
 * three fields it uses.
 */
import { publicRoutes } from '../components/blog/public-routes.ts';
import { hiddenPageOf } from '../shared/hidden-components.ts';
import { getHiddenComponents, getPostDates } from './site-data.ts';
import type { SitemapEntry } from './sitemap.ts';

const instant = (iso: string | null | undefined) => (iso && !Number.isNaN(Date.parse(iso)) ? new Date(iso).toISOString() : null);

export async function sitemapEntries(url: URL, site: URL): Promise<SitemapEntry[]> {
  const [dates, hidden] = await Promise.all([getPostDates(url), getHiddenComponents(url)]);
  // A hidden component's pages answer 404 (src/shared/hidden-components.ts): not listed.
  const listed = (path: string) => !hiddenPageOf(path, hidden);
  const posts = (dates ?? []).filter((p) => listed(`/blog/${encodeURIComponent(p.slug)}`));
  const articles = posts.map((p) => ({ loc: new URL(`/blog/${p.slug}`, site).href, lastmod: instant(p.updatedAt ?? p.publishedAt) }));
  const newest = articles.reduce<string | null>((a, e) => (e.lastmod && (!a || e.lastmod > a) ? e.lastmod : a), null);
  // The home page and the blog list the articles, so they change when one does.
  const routes = publicRoutes.filter(listed).map((path) => ({ loc: new URL(path, site).href, lastmod: path === '/' || path === '/blog' ? newest : null }));
  return [...routes, ...articles];
}
