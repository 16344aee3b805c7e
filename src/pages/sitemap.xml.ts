/**
 * /sitemap.xml: every public route and every published article (DOMAIN.md Publishing: a correct
 * sitemap that includes every published article), absolute URLs from the configured site, lastmod
 * from each article's last change. Rendered on demand and republished when posts change.
 */
import type { APIRoute } from 'astro';
import { publicRoutes } from '../components/blog/public-routes.ts';
import type { PublicBlogPost } from '../shared/public-api.ts';
import { getPost, getPosts } from '../server/site-data.ts';

export const prerender = false;

const xml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
const day = (iso: string | null | undefined) => (iso && !Number.isNaN(Date.parse(iso)) ? new Date(iso).toISOString() : null);

export const GET: APIRoute = async ({ site, url }) => {
  const base = site ?? url;
  const posts = (await getPosts(url)) ?? [];
  // The list carries no updatedAt; each article's own answer does.
  const full = await Promise.all(posts.map((p) => getPost(url, p.slug).catch(() => null)));
  const articles = posts.map((p, i) => ({ slug: p.slug, lastmod: day((full[i] as PublicBlogPost | null)?.updatedAt ?? p.publishedAt) }));
  const newest =
    articles
      .map((a) => a.lastmod)
      .filter((d): d is string => Boolean(d))
      .sort()
      .at(-1) ?? null;

  const entries = [
    // The home page and the blog list the articles, so they change when one does.
    ...publicRoutes.map((path) => ({ loc: new URL(path, base).href, lastmod: path === '/' || path === '/blog' ? newest : null })),
    ...articles.map((a) => ({ loc: new URL(`/blog/${a.slug}`, base).href, lastmod: a.lastmod })),
  ];
  const body =
    '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n' +
    entries.map((e) => `  <url><loc>${xml(e.loc)}</loc>${e.lastmod ? `<lastmod>${e.lastmod}</lastmod>` : ''}</url>\n`).join('') +
    '</urlset>\n';
  return new Response(body, { headers: { 'content-type': 'application/xml; charset=utf-8' } });
};
