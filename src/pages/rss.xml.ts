/**
 * /rss.xml: RSS 2.0 of the newest published articles, newest first (DOMAIN.md Publishing). Rendered
 * on demand and republished when posts change. The latest FEED_ITEMS only, as feeds do: a reader polls
 * it often, and its size stays the same however many articles the firm has published.
 */
import type { APIRoute } from 'astro';
import { feedTitle } from '../config/firm.ts';
import { getPostsPage } from '../server/site-data.ts';

export const prerender = false;

const xml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
const time = (iso: string | null) => (iso ? Date.parse(iso) || 0 : 0);
export const FEED_ITEMS = 20;

export const GET: APIRoute = async ({ site, url }) => {
  const base = site ?? url;
  const posts = (await getPostsPage(url, FEED_ITEMS)).posts
    .filter((p) => p.publishedAt)
    .sort((a, b) => time(b.publishedAt) - time(a.publishedAt))
    .slice(0, FEED_ITEMS);
  const blogUrl = new URL('/blog', base).href;
  const items = posts.map((p) => {
    const link = new URL(`/blog/${p.slug}`, base).href;
    return [
      '    <item>',
      `      <title>${xml(p.title)}</title>`,
      `      <link>${xml(link)}</link>`,
      `      <guid isPermaLink="true">${xml(link)}</guid>`,
      `      <pubDate>${new Date(p.publishedAt!).toUTCString()}</pubDate>`,
      `      <description>${xml(p.excerpt)}</description>`,
      `      <category>${xml(p.category)}</category>`,
      `      <dc:creator>${xml(p.author)}</dc:creator>`,
      '    </item>',
    ].join('\n');
  });
  const body = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/">',
    '  <channel>',
    `    <title>${xml(feedTitle)}</title>`,
    `    <link>${xml(blogUrl)}</link>`,
    `    <description>${xml('Articles on California estate planning, family law, divorce and probate. General information, not legal advice.')}</description>`,
    '    <language>en-us</language>',
    `    <atom:link href="${xml(new URL('/rss.xml', base).href)}" rel="self" type="application/rss+xml" />`,
    ...(posts[0] ? [`    <lastBuildDate>${new Date(posts[0].publishedAt!).toUTCString()}</lastBuildDate>`] : []),
    ...items,
    '  </channel>',
    '</rss>',
    '',
  ].join('\n');
  return new Response(body, { headers: { 'content-type': 'application/rss+xml; charset=utf-8' } });
};
