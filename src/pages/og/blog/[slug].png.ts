/**
 * /og/blog/<slug>.png: an article's link-preview card (src/server/og-card.ts), 1200 x 630. Rendered on
 * demand and kept by the server with the article's page, re-rendered when the article changes
 * (api/site/published-pages.ts), so a title edit reaches the card too. A slug with no published
 * article (or a sample's) answers 404: its page uses the site's own card.
 */
import type { APIRoute } from 'astro';
import { categoryLabel } from '../../../components/blog/format.ts';
import { articleCardPng } from '../../../server/og-card.ts';
import { getPost } from '../../../server/site-data.ts';
import { dateLabel } from '../../../shared/firm-time.ts';

export const prerender = false;

export const GET: APIRoute = async ({ params, url }) => {
  const post = await getPost(url, params.slug ?? '');
  if (!post || post.slug !== params.slug) return new Response('Not found', { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' } });
  const png = await articleCardPng({ title: post.title, category: categoryLabel(post.category), date: dateLabel(post.publishedAt) });
  return new Response(new Uint8Array(png), { headers: { 'content-type': 'image/png' } });
};
