/**
 * /sitemap.xml: every public route and every published article (DOMAIN.md Publishing: a correct
 * sitemap that includes every published article), or, past 50,000 URLs, the index of the parts
 * (/sitemap-{n}.xml). Rendered on demand and republished when posts change.
 */
import type { APIRoute } from 'astro';
import { partCount, sitemapIndex, urlset } from '../server/sitemap.ts';
import { sitemapEntries } from '../server/sitemap-entries.ts';

export const prerender = false;

export const GET: APIRoute = async ({ site, url }) => {
  const base = site ?? url;
  const entries = await sitemapEntries(url, base);
  const body = partCount(entries.length) === 1 ? urlset(entries) : sitemapIndex(entries, (n) => new URL(`/sitemap-${n}.xml`, base).href);
  return new Response(body, { headers: { 'content-type': 'application/xml; charset=utf-8' } });
};
