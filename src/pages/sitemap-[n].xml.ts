/**
 * /sitemap-{n}.xml: part n of the sitemap once it has more than 50,000 URLs (/sitemap.xml is then
 * their index); 404 otherwise. Rendered on demand and dropped when posts change.
 */
import type { APIRoute } from 'astro';
import { part, partCount, urlset } from '../server/sitemap.ts';
import { sitemapEntries } from '../server/sitemap-entries.ts';

export const prerender = false;

export const GET: APIRoute = async ({ params, site, url }) => {
  const n = /^[1-9]\d{0,3}$/.test(params.n ?? '') ? Number(params.n) : 0;
  const entries = await sitemapEntries(url, site ?? url);
  const urls = partCount(entries.length) > 1 ? part(entries, n) : null;
  if (!urls) return new Response('Not found', { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' } });
  return new Response(urlset(urls), { headers: { 'content-type': 'application/xml; charset=utf-8' } });
};
